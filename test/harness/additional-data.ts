import type { IWorkflowExecuteAdditionalData } from 'n8n-workflow';

/**
 * What n8n hands every node context besides the workflow: its URLs (as an instance at `baseUrl` would have them),
 * no variables, a user. The action runner, the poll harness and the webhook harness add what their kind of run
 * needs (hooks, the credentials helper, the request and response) through `extra`.
 */
export function additionalData(
	extra: Record<string, unknown> = {},
	baseUrl = 'http://127.0.0.1:5678',
): IWorkflowExecuteAdditionalData {
	return {
		restApiUrl: `${baseUrl}/rest`,
		instanceBaseUrl: `${baseUrl}/`,
		webhookBaseUrl: `${baseUrl}/webhook/`,
		webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting/`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test/`,
		formWaitingBaseUrl: `${baseUrl}/form-waiting/`,
		variables: {},
		userId: 'test-user',
		...extra,
	} as unknown as IWorkflowExecuteAdditionalData;
}
