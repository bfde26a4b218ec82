import { z } from 'zod';
import { StringMap, Uint32 } from '../values/common.ts';
import { HeaderMap, HeaderName } from '../values/http-headers.ts';
import { enabledRead, enabledWrite } from './module-forms.ts';
import { flag } from '../errors/rules.ts';
import {
  isWebhookProvider,
  SECRETLESS_WEBHOOK_PROVIDERS,
  WEBHOOK_PROVIDERS,
} from './webhook-providers.ts';

export const CIRCUIT_BREAKER_MAX_BUCKETS = 128;

/** Used when a write form leaves a setting out; those of the platform's circuit breaker. */
export const CIRCUIT_BREAKER_DEFAULTS = {
  tripped_duration: 10,
  rolling_window: 10,
  num_buckets: 10,
  volume_threshold: 10,
  error_threshold_percentage: 0.5,
} as const;

/** Read leniently: the bounds are the write form's to enforce. */
export const EndpointCircuitBreaker = z.looseObject({
  enabled: enabledRead,
  tripped_duration: Uint32,
  rolling_window: Uint32,
  num_buckets: Uint32,
  volume_threshold: Uint32,
  error_threshold_percentage: z.number(),
});
export type EndpointCircuitBreaker = z.output<typeof EndpointCircuitBreaker>;

export const EndpointCircuitBreakerMutate = z.strictObject({
  enabled: enabledWrite,
  tripped_duration: Uint32.default(CIRCUIT_BREAKER_DEFAULTS.tripped_duration),
  rolling_window: Uint32.default(CIRCUIT_BREAKER_DEFAULTS.rolling_window),
  num_buckets: Uint32.min(1)
    .max(CIRCUIT_BREAKER_MAX_BUCKETS)
    .default(CIRCUIT_BREAKER_DEFAULTS.num_buckets),
  volume_threshold: Uint32.default(CIRCUIT_BREAKER_DEFAULTS.volume_threshold),
  // A fraction from 0 to 1, not a percentage from 0 to 100 despite the name.
  error_threshold_percentage: z
    .number()
    .min(0)
    .max(1)
    .default(CIRCUIT_BREAKER_DEFAULTS.error_threshold_percentage),
});
export type EndpointCircuitBreakerMutate = z.input<typeof EndpointCircuitBreakerMutate>;

export const EndpointCompression = z.looseObject({ enabled: enabledRead });
export type EndpointCompression = z.output<typeof EndpointCompression>;
export const EndpointCompressionMutate = z.strictObject({ enabled: enabledWrite });
export type EndpointCompressionMutate = z.input<typeof EndpointCompressionMutate>;

/** Its fields beyond `enabled` are not shown by the spec; none are modelled. */
export const EndpointWebsocketTCPConverter = z.looseObject({ enabled: enabledRead });
export type EndpointWebsocketTCPConverter = z.output<typeof EndpointWebsocketTCPConverter>;
export const EndpointWebsocketTCPConverterMutate = z.strictObject({ enabled: enabledWrite });
export type EndpointWebsocketTCPConverterMutate = z.input<
  typeof EndpointWebsocketTCPConverterMutate
>;

// Request and response header modules have the same shape.
const HeadersRead = z.looseObject({
  enabled: enabledRead,
  add: StringMap,
  remove: z.array(z.string()),
});
const HeadersWrite = z.strictObject({
  enabled: enabledWrite,
  add: HeaderMap.default(() => ({})),
  remove: z.array(HeaderName).default(() => []),
});

const EndpointRequestHeaders = HeadersRead;
export type EndpointRequestHeaders = z.output<typeof EndpointRequestHeaders>;
export const EndpointRequestHeadersMutate = HeadersWrite;
export type EndpointRequestHeadersMutate = z.input<typeof EndpointRequestHeadersMutate>;

export const EndpointResponseHeaders = HeadersRead;
export type EndpointResponseHeaders = z.output<typeof EndpointResponseHeaders>;
export const EndpointResponseHeadersMutate = HeadersWrite;
export type EndpointResponseHeadersMutate = z.input<typeof EndpointResponseHeadersMutate>;

/** Secrets are echoed as stored; a provider without a secret reads back as "". */
export const EndpointWebhookValidation = z.looseObject({
  enabled: enabledRead,
  provider: z.string(),
  secret: z.string(),
});
export type EndpointWebhookValidation = z.output<typeof EndpointWebhookValidation>;

const WebhookProviderName = z
  .string()
  .toLowerCase()
  .superRefine((name, ctx) => {
    if (!isWebhookProvider(name))
      flag(ctx, [], 'is not a known webhook provider', 'webhookProvider');
  })
  .pipe(z.enum(WEBHOOK_PROVIDERS))
  .meta({ description: `Case-insensitive; one of ${WEBHOOK_PROVIDERS.join(', ')}.` });

/** An empty secret counts as none, so that a read module can be written back unchanged. */
export const EndpointWebhookValidationMutate = z
  .strictObject({
    enabled: enabledWrite,
    provider: WebhookProviderName,
    secret: z.string().optional(),
  })
  .superRefine((module, ctx) => {
    const secretless = SECRETLESS_WEBHOOK_PROVIDERS.includes(module.provider);
    const hasSecret = (module.secret ?? '') !== '';
    if (secretless && hasSecret)
      flag(ctx, ['secret'], `must not be set for provider "${module.provider}"`, 'webhookProvider');
    if (!secretless && !hasSecret)
      flag(ctx, ['secret'], `is required for provider "${module.provider}"`, 'webhookProvider');
  });
export type EndpointWebhookValidationMutate = z.input<typeof EndpointWebhookValidationMutate>;

/** The HTTP modules of a route, in the spec's order; the auth modules and the converter follow. */
export const HTTP_MODULES = {
  circuit_breaker: { read: EndpointCircuitBreaker, write: EndpointCircuitBreakerMutate },
  compression: { read: EndpointCompression, write: EndpointCompressionMutate },
  request_headers: { read: EndpointRequestHeaders, write: EndpointRequestHeadersMutate },
  response_headers: { read: EndpointResponseHeaders, write: EndpointResponseHeadersMutate },
  webhook_verification: { read: EndpointWebhookValidation, write: EndpointWebhookValidationMutate },
} as const;
