import type { INodeProperties, IWebhookDescription } from 'n8n-workflow';

/** The operation value n8n looks for: it checks the resume link's signature and builds the AI-agent tool for it. */
export const SEND_AND_WAIT = 'sendAndWait';

/**
 * The resume webhooks of a send-and-wait node, as n8n's own nodes declare them: the path is the node's id (the
 * signed link is `<webhook-waiting base>/<execution>/<node id>?…&signature=…`) and `restartWebhook` makes them
 * resume webhooks, which n8n never registers on activation (it skips them), so there is nothing to create, check
 * or delete on the service: no `webhookMethods`. GET and HEAD only show the page; POST (the page's button) answers.
 */
export const sendAndWaitWebhooks: IWebhookDescription[] = (['GET', 'HEAD', 'POST'] as const).map(
	(httpMethod) => ({
		name: 'default',
		httpMethod,
		responseMode: 'onReceived',
		responseData: '',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	}),
);

/** What the editor shows on a waiting send-and-wait node. */
export const sendAndWaitTooltip =
	"={{ $parameter.operation === 'sendAndWait' ? 'The execution goes on once the person answers on the page their link opens' : '' }}";

/** Every element type a page field can have; Custom Form and Review and Edit each offer a part of it. */
const FIELD_TYPES = [
	{ name: 'Checkboxes', value: 'checkbox' },
	{ name: 'Date', value: 'date' },
	{ name: 'Dropdown List', value: 'dropdown' },
	{ name: 'Email', value: 'email' },
	{ name: 'Long Text', value: 'textarea' },
	{ name: 'Number', value: 'number' },
	{ name: 'Text', value: 'text' },
];

/**
 * A list of page fields shown for one response type (Custom Form's elements, Review and Edit's fields): Element
 * Type (the types not in `withoutTypes`), Field Name, Field Options for the types that offer choices, then `extra`.
 */
function fieldList(list: {
	displayName: string;
	name: string;
	placeholder: string;
	description: string;
	responseType: string;
	withoutTypes: string;
	label: { placeholder: string; description: string };
	choiceTypes: string[];
	extra: INodeProperties[];
}): INodeProperties {
	return {
		displayName: list.displayName,
		name: list.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: list.placeholder,
		default: {},
		description: list.description,
		displayOptions: { show: { responseType: [list.responseType] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Element Type',
						name: 'fieldType',
						type: 'options',
						default: 'text',
						options: FIELD_TYPES.filter((type) => type.value !== list.withoutTypes),
						required: true,
					},
					{
						displayName: 'Field Name',
						name: 'fieldLabel',
						type: 'string',
						default: '',
						placeholder: list.label.placeholder,
						description: list.label.description,
						required: true,
					},
					{
						displayName: 'Field Options',
						name: 'fieldOptions',
						type: 'fixedCollection',
						typeOptions: { multipleValues: true, sortable: true },
						placeholder: 'Add Field Option',
						default: { values: [{ option: '' }] },
						description: 'The choices offered',
						displayOptions: { show: { fieldType: list.choiceTypes } },
						options: [
							{
								displayName: 'Values',
								name: 'values',
								values: [{ displayName: 'Option', name: 'option', type: 'string', default: '' }],
							},
						],
					},
					...list.extra,
				],
			},
		],
	};
}

const formFields = fieldList({
	displayName: 'Form Elements',
	name: 'formFields',
	placeholder: 'Add Form Element',
	description:
		'The fields of the form the person fills in; the answer holds each under its label (at least one field)',
	responseType: 'customForm',
	withoutTypes: 'textarea',
	label: {
		placeholder: 'e.g. Refund amount',
		description: 'Label above the field; also its key in the answer unless Output Key is set',
	},
	choiceTypes: ['dropdown', 'checkbox'],
	extra: [
		{
			displayName: 'Output Key',
			name: 'fieldKey',
			type: 'string',
			default: '',
			placeholder: 'e.g. refundAmount',
			description:
				'The key of this field in the answer (data.refundAmount); empty: the Field Name as typed',
		},
		{
			displayName: 'Placeholder',
			name: 'placeholder',
			type: 'string',
			default: '',
			displayOptions: { show: { fieldType: ['text', 'number', 'email'] } },
		},
		{
			displayName: 'Required Field',
			name: 'requiredField',
			type: 'boolean',
			default: false,
			description:
				'Whether the person must fill it in (for checkboxes: tick at least one) before the form is accepted',
		},
	],
});

const reviewFields = fieldList({
	displayName: 'Fields to Review',
	name: 'reviewFields',
	placeholder: 'Add Field',
	description:
		'Fields the page shows pre-filled (e.g. the subject and body of a draft, an amount); the person edits them, then approves or declines. An approval gives the edited values under their names.',
	responseType: 'reviewAndEdit',
	withoutTypes: 'checkbox',
	label: {
		placeholder: 'e.g. Subject',
		description: 'Label above the field, and its key in the answer',
	},
	choiceTypes: ['dropdown'],
	extra: [
		{
			displayName: 'Required Field',
			name: 'requiredField',
			type: 'boolean',
			default: false,
			description: 'Whether the field must not be left empty to approve',
		},
		{
			displayName: 'Value',
			name: 'fieldValue',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.draft.subject }}',
			description:
				'The pre-filled value, usually an expression. It is checked like an answer before the message is sent, and evaluated again when the page is shown.',
		},
	],
});

const approvalOptions: INodeProperties = {
	displayName: 'Approval Options',
	name: 'approvalOptions',
	type: 'fixedCollection',
	placeholder: 'Add option',
	default: {},
	displayOptions: { show: { responseType: ['approval', 'reviewAndEdit'] } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Type of Approval',
					name: 'approvalType',
					type: 'options',
					default: 'single',
					description: 'Review and Edit always offers both',
					options: [
						{ name: 'Approve Only', value: 'single' },
						{ name: 'Approve and Decline', value: 'double' },
					],
				},
				{
					displayName: 'Approve Button Label',
					name: 'approveLabel',
					type: 'string',
					default: 'Approve',
				},
				{
					displayName: 'Decline Button Label',
					name: 'disapproveLabel',
					type: 'string',
					default: 'Decline',
					displayOptions: { show: { approvalType: ['double'] } },
				},
				{
					displayName: 'Comment',
					name: 'comment',
					type: 'options',
					default: 'off',
					description:
						"Whether the page asks for a comment with the answer; the output gives it as data.comment. An AI agent whose tool call is declined receives the comment as the reviewer's feedback.",
					options: [
						{ name: 'Off', value: 'off' },
						{ name: 'Optional', value: 'optional' },
						{ name: 'Required on Decline', value: 'onDecline' },
						{ name: 'Required', value: 'always' },
					],
				},
			],
		},
	],
};

const limitWaitTime: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	placeholder: 'Add Wait Limit',
	description:
		'Whether to stop waiting after a while: the execution then goes on with the input items, each with "data": {"timedOut": true} (plus "approved": false for an approval)',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					options: [
						{
							name: 'After Time Interval',
							value: 'afterTimeInterval',
							description: 'Counted from sending',
						},
						{ name: 'At Specified Time', value: 'atSpecifiedTime' },
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					typeOptions: { minValue: 0, numberPrecision: 2 },
					default: 1,
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					default: 'hours',
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					description: 'Stop waiting at this date and time (in the future)',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
				},
			],
		},
	],
};

const formOptions: INodeProperties[] = [
	{
		displayName: 'Message Button Label',
		name: 'messageButtonLabel',
		type: 'string',
		default: 'Respond',
		description: 'Text of the link in the message',
	},
	{
		displayName: 'Response Form Title',
		name: 'responseFormTitle',
		type: 'string',
		default: '',
		description: 'Title of the page (default: the subject, or "Your answer")',
	},
	{
		displayName: 'Response Form Description',
		name: 'responseFormDescription',
		type: 'string',
		default: '',
		description: 'Text above the form (default: the message)',
	},
	{
		displayName: 'Response Form Button Label',
		name: 'responseFormButtonLabel',
		type: 'string',
		default: 'Submit',
	},
];

/**
 * Response Type, the form, the approval buttons and the options, as n8n's own send-and-wait nodes name them (so
 * the AI-agent tool n8n builds finds `message`, `responseType` and `approvalOptions`). The message field itself is
 * the operation's (its description differs for email and SMS); it must be named `message`.
 */
export function sendAndWaitFields(): INodeProperties[] {
	return [
		{
			displayName: 'Response Type',
			name: 'responseType',
			type: 'options',
			default: 'approval',
			options: [
				{
					name: 'Approval',
					value: 'approval',
					description: 'The person approves (or declines) on the page the link opens',
				},
				{
					name: 'Free Text',
					value: 'freeText',
					description: 'The person writes an answer on the page the link opens',
				},
				{
					name: 'Custom Form',
					value: 'customForm',
					description: 'The person fills in a form defined here',
				},
				{
					name: 'Review and Edit',
					value: 'reviewAndEdit',
					description: 'The person edits pre-filled fields (e.g. a draft) and approves or declines',
				},
			],
		},
		formFields,
		reviewFields,
		approvalOptions,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			options: [limitWaitTime],
			displayOptions: { show: { responseType: ['approval'] } },
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add option',
			default: {},
			options: [...formOptions, limitWaitTime],
			displayOptions: { show: { responseType: ['freeText', 'customForm', 'reviewAndEdit'] } },
		},
	];
}
