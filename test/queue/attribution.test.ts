/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

import { AttributionRelay } from './attribution';

/**
 * The queue suite's figures ("polls on the main only", "one token exchange per worker") rest on the relay naming the
 * right process. A CI run counted a poll for worker1, most likely because Linux gives connections to different
 * destinations the same local port at once, and the relay matched the local port alone. Here
 * one process holds thousands of connections elsewhere while another sends through the relay, so ports coincide
 * (with the holder's connections and with the relay's own ones upstream; without the fix two runs misnamed 50 and
 * 111 of 200 requests, to the holder or to no known process).
 */
describe('the attribution relay', () => {
	const sockets = new Set<Socket>();
	const servers: Server[] = [];
	const children: ChildProcess[] = [];
	afterAll(async () => {
		for (const child of children) child.kill('SIGKILL');
		for (const socket of sockets) socket.destroy();
		await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
	});

	const listen = async (onConnection: (socket: Socket) => void) => {
		const server = createServer((socket) => {
			sockets.add(socket);
			onConnection(socket);
		});
		servers.push(server);
		await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
		return (server.address() as { port: number }).port;
	};

	/**
	 * A node process that opens `count` connections to `port` (sending `request` on each) and keeps them. Its pid is
	 * known at once (the relay must know it before the first connection); `ports` resolves to its local ports.
	 */
	const connector = (port: number, count: number, request: string) => {
		const child = spawn(
			process.execPath,
			[
				'-e',
				`const net = require('node:net'); const ports = []; (async () => {
					for (let i = 0; i < ${count}; i++) await new Promise((done) => {
						const socket = net.connect(${port}, '127.0.0.1', () => { ports.push(socket.localPort); socket.write(${JSON.stringify(request)}); done(); });
					});
					console.log(JSON.stringify(ports));
				})(); setInterval(() => {}, 1000);`,
			],
			{ stdio: ['ignore', 'pipe', 'inherit'] },
		);
		children.push(child);
		const lines = createInterface({ input: child.stdout! });
		const ports = once(lines, 'line').then(([line]) => JSON.parse(line as string) as number[]);
		return { pid: child.pid!, ports };
	};

	it('names the process that sent each request even when another process uses the same local port', async () => {
		const elsewhere = await listen(() => {});
		const target = await listen((socket) => socket.resume());
		const processes: Record<string, number | undefined> = {};
		const relay = new AttributionRelay({ host: '127.0.0.1', port: target }, () => processes);
		await relay.start();
		try {
			const holder = connector(elsewhere, 2000, '');
			const heldPorts = await holder.ports;
			const sender = connector(
				relay.port,
				200,
				'GET /smtp/bounces/day HTTP/1.1\r\nHost: x\r\n\r\n',
			);
			// The sender is looked up first, so only a wrong match of a holder's socket can name the holder.
			Object.assign(processes, { sender: sender.pid, holder: holder.pid });
			const sentFrom = await sender.ports;

			const held = new Set(heldPorts);
			const shared = sentFrom.filter((port) => held.has(port));
			// The situation of the failed CI run is there: without it this check could not fail.
			expect(shared.length).toBeGreaterThan(0);
			const deadline = Date.now() + 40_000;
			while (relay.requests.length < 200 && Date.now() < deadline)
				await new Promise((done) => setTimeout(done, 20));
			expect(relay.countByProcess()).toEqual({ sender: 200 });
		} finally {
			await relay.close();
		}
	});
});
