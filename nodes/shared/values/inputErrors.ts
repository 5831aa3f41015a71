import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

/** Bad input for one item: names the parameter and the item, and is raised before anything is sent. */
export function invalidInput(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	problem: string,
	hint?: string,
) {
	return new NodeOperationError(context.getNode(), `${parameter}: ${problem} [item ${itemIndex}]`, {
		itemIndex,
		description: hint,
	});
}

/** A required parameter given nothing (empty text, only spaces, an empty list): the one wording everywhere. */
export function emptyInput(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	hint?: string,
) {
	return invalidInput(context, itemIndex, parameter, 'is empty', hint);
}
