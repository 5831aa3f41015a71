import type { Sandbox } from '../../sandbox';
import type { BenchN8n } from './n8n';
import type { WorkflowJson } from './workflows';

export interface BenchConfig {
	smoke: boolean;
}

export interface BenchContext extends BenchConfig {
	sandbox: Sandbox;
	/** Undefined for the scenarios that run without a real n8n (5 and 7), and when none of the others needs one. */
	n8n?: BenchN8n;
	log: (line: string) => void;
}

export interface Table {
	headers: string[];
	rows: string[][];
}

export interface ScenarioResult {
	id: number;
	title: string;
	/** How it was run (counts, settings, what is measured), as Markdown bullets. */
	setup: string[];
	tables: Table[];
	/** What the figures say, in a sentence or two. */
	findings: string[];
	/** One line for the README summary table: [what, ours, HTTP Request, ratio]. */
	summary: Array<[string, string, string, string]>;
	/** Files written next to RESULTS.md (e.g. the chart), by name. */
	files?: Record<string, string>;
	/** The scenario's headline figures, written under `s<id>` (or `headlineKey`; `a.b`: entry b of object a) to results.json beside RESULTS.md. */
	headline?: Record<string, unknown> | unknown[];
	headlineKey?: string;
	/** Figures a smoke run checks (the harness must produce them). */
	checks: Array<[string, boolean]>;
}

/**
 * Where a scenario runs: `execute` (one `n8n execute` process per run), `server` (webhooks), in-process, or
 * `queue` (its own n8n in queue mode, after the others; a smoke run skips it).
 */
export interface Scenario {
	id: number;
	title: string;
	phase: 'execute' | 'server' | 'inProcess' | 'queue';
	/** Credentials (ids) and workflows it needs imported into n8n before the runs. */
	prepare?: (context: Omit<BenchContext, 'n8n'>) => {
		credentials: string[];
		workflows: WorkflowJson[];
		webhooks?: string[];
	};
	run: (context: BenchContext) => Promise<ScenarioResult>;
}
