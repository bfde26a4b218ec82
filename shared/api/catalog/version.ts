/** The version header every request must carry; version 2 is the only current one. */
export const SERVICE_VERSION_HEADER = 'Service-Version';
export const SERVICE_VERSION = '2';
export const SUPPORTED_VERSIONS: readonly string[] = [SERVICE_VERSION];
