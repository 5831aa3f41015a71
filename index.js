// n8n loads the package through the `n8n` section of package.json; this main entry only lists what it ships.
module.exports = {
	credentials: ['MessagingServiceApi'],
	nodes: [
		'MessagingEmail',
		'MessagingSms',
		'MessagingTrigger',
		'MessagingSmsTrigger',
		'MessagingEmailTrigger',
	],
};
