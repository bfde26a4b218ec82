import { z } from 'zod';

// RFC 9110 field names are tokens; values may not hold line breaks, which would smuggle headers.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[^\r\n\0]*$/;

export const HeaderName = z.string().regex(TOKEN, 'must be an HTTP header name');
const HeaderValue = z.string().regex(FIELD_VALUE, 'must not contain line breaks');
export const HeaderMap = z.record(HeaderName, HeaderValue);
