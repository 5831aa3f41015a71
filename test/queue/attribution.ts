/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of the sandbox that tells which n8n process sent each request: on every connection it finds
 * the client socket's inode in /proc/net/tcp and the process holding it among the known pids (Linux only), then
 * counts the HTTP request lines that go through. The credential's base URL points here, so nothing in n8n or the
 * package changes; the sandbox's own request log stays the record of what was sent.
 */
export interface AttributedRequest {
	process: string;
	method: string;
	path: string;
	at: number;
}

const REQUEST_LINE = /(GET|POST|PUT|PATCH|DELETE) (\/[^ ?\r\n]*)[^ \r\n]* HTTP\/1\.1\r\n/g;

export class AttributionRelay {
	readonly requests: AttributedRequest[] = [];
	private server?: Server;
	private readonly sockets = new Set<Socket>();
	port = 0;

	/** `processes()`: the current name → pid map (processes restart, so it is read on every connection). */
	constructor(
		/** Where requests go; a test may point it at another sandbox. */
		public target: { host: string; port: number },
		private readonly processes: () => Record<string, number | undefined>,
	) {}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	async start(): Promise<void> {
		this.server = createServer((client) => this.relay(client));
		await new Promise<void>((resolveListen) =>
			this.server!.listen(0, '127.0.0.1', () => resolveListen()),
		);
		this.port = (this.server.address() as { port: number }).port;
	}

	private relay(client: Socket) {
		const owner = this.ownerOf(client.remotePort!, client.localPort!) ?? 'unknown';
		const upstream = connect(this.target.port, this.target.host);
		this.sockets.add(client).add(upstream);
		let tail = '';
		client.on('data', (chunk) => {
			const text = tail + chunk.toString('latin1');
			let lastEnd = 0;
			for (const match of text.matchAll(REQUEST_LINE)) {
				this.requests.push({ process: owner, method: match[1], path: match[2], at: Date.now() });
				lastEnd = match.index + match[0].length;
			}
			tail = text.slice(Math.max(lastEnd, text.length - 300));
			upstream.write(chunk);
		});
		upstream.on('data', (chunk) => client.write(chunk));
		const close = () => {
			client.destroy();
			upstream.destroy();
			this.sockets.delete(client);
			this.sockets.delete(upstream);
		};
		client.on('close', close).on('error', close);
		upstream.on('close', close).on('error', close);
	}

	/** The named process whose file descriptors include the client's end of this connection to the relay. */
	private ownerOf(clientPort: number, relayPort: number): string | undefined {
		const inode = connectionInode(readFileSync('/proc/net/tcp', 'utf8'), clientPort, relayPort);
		if (!inode) return undefined;
		return Object.entries(this.processes()).find(
			([, pid]) => pid && socketInodes(pid).has(inode),
		)?.[0];
	}

	/** Requests per process, optionally only those matching `filter`. */
	countByProcess(filter: (request: AttributedRequest) => boolean = () => true) {
		const counts: Record<string, number> = {};
		for (const request of this.requests.filter(filter))
			counts[request.process] = (counts[request.process] ?? 0) + 1;
		return counts;
	}

	clear() {
		this.requests.length = 0;
	}

	async close(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise<void>(
			(resolveClose) => this.server?.close(() => resolveClose()) ?? resolveClose(),
		);
	}
}

/**
 * The inode of the socket 127.0.0.1:<clientPort> → 127.0.0.1:<relayPort> in the text of /proc/net/tcp. Both ends are
 * matched: Linux gives connections to different destinations the same local port at once (a worker's Redis or
 * Postgres connection can hold the port of the main's connection to the relay), and the kernel lists them in an
 * order of its own, so the local address alone can name another process's socket.
 */
export function connectionInode(
	procNetTcp: string,
	clientPort: number,
	relayPort: number,
): string | undefined {
	const local = procNetAddress(clientPort);
	const remote = procNetAddress(relayPort);
	for (const entry of procNetTcp.split('\n')) {
		const fields = entry.trim().split(/\s+/);
		if (fields[1] === local && fields[2] === remote) return fields[9];
	}
	return undefined;
}

/** 127.0.0.1:<port> as /proc/net/tcp writes it. */
export function procNetAddress(port: number): string {
	return `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The inodes of the sockets a process holds (none once it has exited). */
export function socketInodes(pid: number): Set<string> {
	const inodes = new Set<string>();
	let fds: string[];
	try {
		fds = readdirSync(`/proc/${pid}/fd`);
	} catch {
		return inodes; // the process has exited
	}
	for (const fd of fds) {
		try {
			const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
			if (inode) inodes.add(inode);
		} catch {
			// the descriptor was closed meanwhile
		}
	}
	return inodes;
}
