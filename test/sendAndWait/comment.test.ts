import { MessagingEmail } from '../../nodes/MessagingEmail/MessagingEmail.node';
import { REFUND_EMAIL, usePageServers } from './setup';

/** A comment with the answer (Approval Options → Comment), over real HTTP. */

const servePage = usePageServers();
async function serve(comment: string, type = 'messagingEmail') {
	const server = await servePage(new MessagingEmail(), type, {
		...REFUND_EMAIL,
		approvalOptions: { values: { approvalType: 'double', comment } },
	});
	return server.request;
}

const Q = '?approved=true&signature=x';
const respondedAt = expect.any(String);
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('Comment', () => {
	test('off (the default): no box, a posted comment is not in the output', async () => {
		const request = await serve('off');
		expect((await request('GET', Q)).text).not.toContain('name="comment"');
		const answer = await request('POST', Q, form({ approved: 'true', comment: 'hi' }));
		expect(answer.items?.[0].json.data).toEqual({ approved: true, respondedAt });
	});

	test('optional: the box; an empty comment is null, a given one is kept as typed', async () => {
		const request = await serve('optional');
		const page = (await request('GET', Q)).text;
		expect(page).toContain(
			'<label for="comment">Comment (optional)</label><textarea id="comment" name="comment" maxlength="10000"></textarea>',
		);
		const none = await request('POST', Q, form({ approved: 'true', comment: ' ' }));
		expect(none.items?.[0].json.data).toEqual({ approved: true, comment: null, respondedAt });
	});

	test('required on Decline: Decline without a comment is refused (Decline first, the execution waits); with one it resumes', async () => {
		const request = await serve('onDecline');
		expect((await request('GET', Q)).text).toContain('Comment (required to decline)');
		const refused = await request('POST', Q, form({ approved: 'false', comment: '' }));
		expect(refused.status).toBe(400);
		expect(refused.items).toBeUndefined();
		expect(refused.text).toContain('<p class="error">Comment: required to decline</p>');
		expect(refused.text).toMatch(/value="false">Decline<\/button><button[^>]*value="true"/);

		const approved = await request('POST', Q, form({ approved: 'true' }));
		expect(approved.items?.[0].json.data).toEqual({ approved: true, comment: null, respondedAt });
	});

	test('required on Decline: the comment goes to the output as typed, and is escaped when shown again', async () => {
		const request = await serve('onDecline');
		const tooLong = await request(
			'POST',
			Q,
			form({ approved: 'false', comment: `<script>"x"</script>${'a'.repeat(10_000)}` }),
		);
		expect(tooLong.status).toBe(400);
		expect(tooLong.text).toContain('Comment: at most 10,000 characters (this has 10,020)');
		expect(tooLong.text).not.toContain('<script>');
		expect(tooLong.text).toContain('&lt;script&gt;&quot;x&quot;&lt;/script&gt;');

		const declined = await request(
			'POST',
			Q,
			form({ approved: 'false', comment: ' Not <this> month ' }),
		);
		expect(declined.items?.[0].json.data).toEqual({
			approved: false,
			comment: 'Not <this> month',
			respondedAt,
		});
	});

	test('required: the browser requires it too; Approve without a comment is refused', async () => {
		const request = await serve('always');
		expect((await request('GET', Q)).text).toContain(
			'<label for="comment">Comment *</label><textarea id="comment" name="comment" maxlength="10000" required>',
		);
		const refused = await request('POST', Q, form({ approved: 'true' }));
		expect([refused.status, refused.items]).toEqual([400, undefined]);
		expect(refused.text).toContain('Comment: required');
		const answered = await request('POST', Q, form({ approved: 'true', comment: 'ok' }));
		expect(answered.items?.[0].json.data).toEqual({ approved: true, comment: 'ok', respondedAt });
	});

	test("as the AI agent's human review (…HitlTool): a Decline's comment is also `chatInput`, which the agent passes to the model", async () => {
		const request = await serve('onDecline', 'messagingEmailHitlTool');
		const declined = await request('POST', Q, form({ approved: 'false', comment: 'Use 100 EUR' }));
		expect(declined.items?.[0].json.data).toEqual({
			approved: false,
			comment: 'Use 100 EUR',
			chatInput: 'Use 100 EUR',
			respondedAt,
		});
		const request2 = await serve('optional', 'messagingEmailHitlTool');
		const approved = await request2('POST', Q, form({ approved: 'true', comment: 'fine' }));
		expect(approved.items?.[0].json.data).toEqual({ approved: true, comment: 'fine', respondedAt });
	});
});
