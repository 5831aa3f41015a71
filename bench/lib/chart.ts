/**
 * Scenario 1's chart, as a self-contained SVG (no dependencies): accepted requests per second over time, one line
 * per side, each starting at its own first request, with the service's limit as a dashed line.
 */
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];

function escape(text: string) {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Counts per whole second since the first timestamp. */
export function perSecond(times: number[]): number[] {
	if (!times.length) return [];
	const sorted = [...times].sort((a, b) => a - b);
	const start = sorted[0];
	const buckets = new Array<number>(
		Math.floor((sorted[sorted.length - 1] - start) / 1000) + 1,
	).fill(0);
	for (const time of sorted) buckets[Math.floor((time - start) / 1000)]++;
	return buckets;
}

export function throughputChart(
	series: Array<{ label: string; times: number[] }>,
	limit: number,
): string {
	const width = 900;
	const height = 420;
	const margin = { left: 60, right: 20, top: 40, bottom: 110 };
	const lines = series.map((entry) => ({ label: entry.label, values: perSecond(entry.times) }));
	const maxSeconds = Math.max(10, ...lines.map((line) => line.values.length));
	const maxValue = Math.max(limit * 1.5, ...lines.flatMap((line) => line.values));
	const plotW = width - margin.left - margin.right;
	const plotH = height - margin.top - margin.bottom;
	const x = (second: number) => margin.left + (second / maxSeconds) * plotW;
	const y = (value: number) => margin.top + plotH - (value / maxValue) * plotH;
	const parts: string[] = [];
	parts.push(
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
	);
	parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
	parts.push(
		`<text x="${width / 2}" y="22" text-anchor="middle" font-size="15">Scenario 1: accepted sends per second (sandbox limit ${limit}/s)</text>`,
	);
	const yStep = maxValue > 40 ? 10 : maxValue > 20 ? 5 : 2;
	for (let value = 0; value <= maxValue; value += yStep) {
		parts.push(
			`<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(value)}" y2="${y(value)}" stroke="#eeeeee"/>`,
		);
		parts.push(
			`<text x="${margin.left - 8}" y="${y(value) + 4}" text-anchor="end">${value}</text>`,
		);
	}
	const xStep = maxSeconds > 120 ? 20 : maxSeconds > 40 ? 10 : maxSeconds > 20 ? 5 : 1;
	for (let second = 0; second <= maxSeconds; second += xStep) {
		parts.push(
			`<text x="${x(second)}" y="${margin.top + plotH + 18}" text-anchor="middle">${second}</text>`,
		);
	}
	parts.push(
		`<text x="${margin.left + plotW / 2}" y="${margin.top + plotH + 36}" text-anchor="middle">seconds since the side's first request</text>`,
	);
	parts.push(
		`<text transform="translate(16 ${margin.top + plotH / 2}) rotate(-90)" text-anchor="middle">accepted requests / s</text>`,
	);
	parts.push(
		`<line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${margin.top + plotH}" stroke="#444444"/>`,
	);
	parts.push(
		`<line x1="${margin.left}" x2="${width - margin.right}" y1="${margin.top + plotH}" y2="${margin.top + plotH}" stroke="#444444"/>`,
	);
	parts.push(
		`<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(limit)}" y2="${y(limit)}" stroke="#555555" stroke-dasharray="6 4"/>`,
	);
	parts.push(
		`<text x="${width - margin.right - 4}" y="${y(limit) - 6}" text-anchor="end" fill="#555555">limit ${limit}/s</text>`,
	);
	lines.forEach((line, index) => {
		const color = COLORS[index % COLORS.length];
		// A step line: each second's count held across that second.
		const points = line.values.flatMap((value, second) => [
			`${x(second).toFixed(1)},${y(value).toFixed(1)}`,
			`${x(second + 1).toFixed(1)},${y(value).toFixed(1)}`,
		]);
		if (points.length)
			parts.push(
				`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.join(' ')}"/>`,
			);
		const legendY = margin.top + plotH + 58 + index * 18;
		parts.push(
			`<line x1="${margin.left}" x2="${margin.left + 24}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${color}" stroke-width="3"/>`,
		);
		parts.push(`<text x="${margin.left + 32}" y="${legendY}">${escape(line.label)}</text>`);
	});
	parts.push('</svg>');
	return `${parts.join('\n')}\n`;
}
