// n8n-core's logger prints every node error to the console; the tests assert on the errors themselves.
process.env.N8N_LOG_LEVEL = 'silent';
