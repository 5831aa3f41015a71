import { useEmailSandbox } from '../email/setup';

const t = useEmailSandbox();
test('probe', async () => {
	const result = await t.run({
		resource: 'email',
		operation: 'sendAndWait',
		fromEmail: 'sender@sandbox.test',
		to: 'ann@example.com',
		subject: 'Refund <script>',
		message: 'Approve "it"?',
	});
	console.log(result.error, result.run.status, result.run.waitTill, JSON.stringify(t.calls()).slice(0, 500));
	console.log(t.state().emails[0]?.content.text);
});
