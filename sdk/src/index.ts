export { Client, type ClientOptions } from "./client.js";
export {
  ApiError,
  type ApiErrorType,
  ChainDisabledError,
  ConnectionError,
  ForbiddenError,
  IdempotencyConflictError,
  InsufficientBalanceError,
  InternalServerError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  SdkError,
  UnauthorizedError,
  WebhookSignatureError,
  type WebhookSignatureFailure,
} from "./errors.js";
export { type Page, PageList } from "./page-list.js";
export type { ExportFile } from "./resources/exports.js";
export type { RequestOptions, ResponseMeta, WithResponse } from "./transport.js";
export { VERSION } from "./transport.js";
export type * from "./types.js";
export { constructEvent, SIGNATURE_HEADER, signatureHeader, webhooks } from "./webhooks.js";
export type { components, operations, paths } from "./generated/api.js";
