/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- not shipped: Node.js code (tests, sandbox, bench, scripts), not node code; see RELEASING.md */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createInterface } from 'node:readline';

import { AttributionRelay, connectionInode, procNetAddress, socketInodes } from './attribution';

/**
 * The queue suite's figures ("polls on the main only", "one token exchange per worker") rest on the relay naming the
 * process that sent each request. A CI run counted a poll for worker1, most likely because Linux gives connections
 * to different destinations the same local port at once, and the relay matched the local port alone: the first of
 * the two sockets in /proc/net/tcp won, in the kernel's order. Here one process holds connections elsewhere from the
 * very local ports another process then uses to send through the relay.
 */
describe('the attribution relay', () => {
	const children: ChildProcess[] = [];
	let target: Server | undefined;
	afterAll(async () => {
		for (const child of children) child.kill('SIGKILL');
		await new Promise((done) => (target ? target.close(done) : done(undefined)));
	});

	/** A node process running `script`; its pid is known at once, `output` resolves to the first line it prints (JSON). */
	const nodeProcess = <T>(script: string) => {
		const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
		children.push(child);
		const lines = createInterface({ input: child.stdout! });
		const output = once(lines, 'line').then(([line]) => JSON.parse(line as string) as T);
		return { pid: child.pid!, output };
	};

	/**
	 * Opens connections to `port` one after another, each from a local port of `fromPorts` (bound explicitly, so two
	 * processes hold the same local port towards different destinations, as Linux's own choice of ports does), sends
	 * `request` on each, keeps them and prints the local ports it holds (a port taken by anything else is skipped).
	 */
	const connector = (port: number, fromPorts: number[], request: string) =>
		nodeProcess<number[]>(
			`const net = require('node:net'); const ports = []; (async () => {
				for (const localPort of ${JSON.stringify(fromPorts)}) await new Promise((done) => {
					const socket = net.connect({ port: ${port}, host: '127.0.0.1', localAddress: '127.0.0.1', localPort });
					socket.on('connect', () => { ports.push(localPort); socket.write(${JSON.stringify(request)}); done(); });
					socket.on('error', () => done());
				});
				console.log(JSON.stringify(ports));
			})(); setInterval(() => {}, 1000);`,
		);

	it('names the sender of every request while another process holds the same local ports towards elsewhere', async () => {
		const elsewhere = await nodeProcess<number>(
			`const server = require('node:net').createServer(() => {});
			server.listen(0, '127.0.0.1', () => console.log(server.address().port));`,
		).output;
		target = createServer((socket) => socket.resume());
		await new Promise<void>((done) => target!.listen(0, '127.0.0.1', done));
		const processes: Record<string, number | undefined> = {};
		const relay = new AttributionRelay(
			{ host: '127.0.0.1', port: (target.address() as { port: number }).port },
			() => processes,
		);
		await relay.start();
		try {
			// Ports below Linux's ephemeral range (32768-60999), so no connection of this machine takes them meanwhile.
			const base = 20_000 + Math.floor(Math.random() * 10_000);
			const holder = connector(
				elsewhere,
				Array.from({ length: 150 }, (_, index) => base + index),
				'',
			);
			const heldPorts = await holder.output;
			const sender = connector(
				relay.port,
				heldPorts,
				'GET /smtp/bounces/day HTTP/1.1\r\nHost: x\r\n\r\n',
			);
			Object.assign(processes, { holder: holder.pid, sender: sender.pid });
			const sentFrom = await sender.output;
			expect(sentFrom.length).toBeGreaterThanOrEqual(100);
			expect(sentFrom.every((port) => heldPorts.includes(port))).toBe(true);

			const deadline = Date.now() + 20_000;
			while (relay.requests.length < sentFrom.length && Date.now() < deadline)
				await new Promise((done) => setTimeout(done, 20));
			expect(relay.countByProcess()).toEqual({ sender: sentFrom.length });

			// Whichever of a port's two sockets the kernel lists first, the sender's is the one found (matching the
			// local address alone finds the holder's when it comes first).
			const senderSockets = socketInodes(sender.pid);
			const holderSockets = socketInodes(holder.pid);
			const local = procNetAddress(sentFrom[0]);
			const inodeOf = (line: string) => line.trim().split(/\s+/)[9];
			const linesOfPort = readFileSync('/proc/net/tcp', 'utf8')
				.split('\n')
				.filter((line) => line.trim().split(/\s+/)[1] === local)
				.filter((line) => senderSockets.has(inodeOf(line)) || holderSockets.has(inodeOf(line)));
			expect(linesOfPort.map((line) => holderSockets.has(inodeOf(line))).sort()).toEqual([
				false,
				true,
			]);
			for (const order of [linesOfPort, [...linesOfPort].reverse()]) {
				const found = connectionInode(order.join('\n'), sentFrom[0], relay.port);
				expect(senderSockets.has(found!)).toBe(true);
			}
		} finally {
			await relay.close();
		}
	});
});
