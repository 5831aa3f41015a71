/** A failure the sandbox answers with the service's error envelope `{message, error_code}`. */
export class ServiceError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly errorCode: number = status,
		readonly extraBody: Record<string, unknown> = {},
	) {
		super(message);
	}

	toBody(): Record<string, unknown> {
		return { ...this.extraBody, message: this.message, error_code: this.errorCode };
	}
}
