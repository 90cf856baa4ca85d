// Every error code the API answers with; SPEC §8 codes first, then the platform's own.
export const errorStatus = {
  ERR_INTERNAL_SERVER_ERROR: 500,
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_SENDING_WAPP_MSG: 400,
  ERR_DELETE_WAPP_MSG: 400,
  ERR_OTHER_OPEN_TICKET: 409,
  ERR_SESSION_EXPIRED: 401,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 400,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_QUEUE_NAME_ALREADY_EXISTS: 409,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_NO_ANNOUNCEMENT_FOUND: 404,
  ERR_UPLOAD_TOO_LARGE: 413,
  ERR_UPLOAD_TYPE_NOT_ALLOWED: 415,
  ERR_UPLOAD_MISSING_FILE: 400,
  ERR_WAPP_GREETING_REQUIRED: 400,
  // Platform codes.
  ERR_VALIDATION: 400,
  ERR_NOT_FOUND: 404,
  ERR_INVALID_TOKEN: 403,
  ERR_COMPANY_INACTIVE: 403,
  ERR_SUPER_ONLY: 403,
  // Two-factor sign-in: a wrong code; the sign-in step is over (used, expired, too many tries) and
  // must start again; the company requires the second factor, which cannot be turned off.
  ERR_TWO_FACTOR_INVALID: 401,
  ERR_TWO_FACTOR_EXPIRED: 401,
  ERR_TWO_FACTOR_REQUIRED: 403,
  // Single sign-on: no provider for the email's domain; the provider could not be reached or
  // answered wrongly; the round trip could not be verified (state, browser, nonce, PKCE: start
  // again); the person cancelled at the provider; the provider does not vouch for the email; no
  // account for it (and the company creates none); the company signs in with SSO only; another
  // company already covers the domain.
  ERR_SSO_NOT_CONFIGURED: 404,
  ERR_SSO_PROVIDER: 424,
  ERR_SSO_REQUEST: 400,
  ERR_SSO_DENIED: 403,
  ERR_SSO_EMAIL_UNVERIFIED: 403,
  ERR_SSO_NO_ACCOUNT: 403,
  ERR_SSO_REQUIRED: 403,
  ERR_SSO_DOMAIN_TAKEN: 409,
  // API tokens (issue 38): without the scope the operation needs, or for an operation tokens cannot
  // call. (An unknown, revoked or expired one is ERR_INVALID_API_TOKEN, below.)
  ERR_API_TOKEN_SCOPE: 403,
  ERR_PLAN_FEATURE_DISABLED: 403,
  ERR_TOO_MANY_REQUESTS: 429,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  ERR_COMPANY_ALREADY_EXISTS: 409,
  ERR_PLAN_ALREADY_EXISTS: 409,
  ERR_PLAN_IN_USE: 409,
  ERR_PLAN_LIMIT_USERS: 403,
  ERR_PLAN_LIMIT_CONNECTIONS: 403,
  ERR_PLAN_LIMIT_QUEUES: 403,
  ERR_PLAN_LIMIT_AI_AGENTS: 403,
  ERR_NO_PLAN_FOUND: 404,
  ERR_NO_COMPANY_FOUND: 404,
  ERR_NO_HELP_FOUND: 404,
  ERR_EMAIL_NOT_FOUND: 404,
  ERR_INVALID_RESET_CODE: 400,
  ERR_CANNOT_DELETE_SELF: 400,
  ERR_CANNOT_DELETE_OWN_COMPANY: 400,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  ERR_PROVIDER_UNAVAILABLE: 400,
  ERR_WAPP_IN_USE: 409,
  ERR_INVALID_SIGNATURE: 401,
  // A typed phone number that is none: not a number of the company's country (Settings), nor one
  // written with its country code.
  ERR_INVALID_NUMBER: 400,
  // A company-supplied URL that points at a private network, or is not http(s).
  ERR_OUTBOUND_URL_NOT_ALLOWED: 400,
  // POST /contacts/import on a connection whose provider cannot read the phone's contacts.
  ERR_IMPORT_NOT_SUPPORTED: 400,
  ERR_SCHEDULE_SENT: 409,
  // Replaying a webhook delivery to an endpoint that is turned off (issue 38).
  ERR_WEBHOOK_DISABLED: 409,
  // Downloading a conversation export that is still being built, or failed (issue 38).
  ERR_EXPORT_NOT_READY: 409,
  // Knowledge base (issue 40): the source (the quick messages, a file list) is in it already; a
  // document whose text cannot be read (damaged, encrypted, a scan without text, too large unpacked).
  ERR_KNOWLEDGE_SOURCE_EXISTS: 409,
  ERR_KNOWLEDGE_UNREADABLE: 422,
  // Accept or reopen of a ticket someone else took meanwhile (details.user names them).
  ERR_TICKET_TAKEN: 409,
  // Billing: the server has no payment provider keys; the provider refused or could not be reached;
  // the plan asked for has no price to charge.
  ERR_PAYMENTS_NOT_CONFIGURED: 503,
  ERR_PAYMENT_PROVIDER: 502,
  ERR_PLAN_NOT_PURCHASABLE: 409,
  // Checkout while the company already pays a subscription (it would be charged twice).
  ERR_SUBSCRIPTION_ACTIVE: 409,
  // External messages API: a missing, empty, unknown or revoked connection token; an API token
  // (issue 38) unknown, revoked or expired.
  ERR_INVALID_API_TOKEN: 401,
  // The same Idempotency-Key was used before for a different request.
  ERR_IDEMPOTENCY_KEY_REUSED: 422,
  // Contact lists (campaign audiences) and their items; a number already in the list.
  ERR_NO_CONTACT_LIST_FOUND: 404,
  ERR_NO_CONTACT_LIST_ITEM_FOUND: 404,
  ERR_DUPLICATED_LIST_ITEM: 409,
  // A spreadsheet past a reading limit (what it unpacks to, its rows, the time or memory it takes);
  // every spreadsheet reader of the server busy (Retry-After says when to try again).
  ERR_SPREADSHEET_TOO_LARGE: 413,
  ERR_SPREADSHEET_BUSY: 503,
  // Campaigns: not found; a change the campaign's state no longer allows (SPEC §4: editable while
  // inactive or scheduled more than an hour ahead); a cancel or restart from a state that has none.
  ERR_NO_CAMPAIGN_FOUND: 404,
  ERR_CAMPAIGN_NOT_EDITABLE: 409,
  ERR_CAMPAIGN_STATUS: 409,
  // Cloud API message templates: not found (or not this company's); a free-form message to a contact
  // whose 24-hour window is closed (only an approved template may go).
  ERR_NO_TEMPLATE_FOUND: 404,
  ERR_WAPP_WINDOW_CLOSED: 409,
  // The connection's session is between API nodes (the one running it went away and another is
  // taking it over): nothing was done; try again after Retry-After seconds.
  ERR_WAPP_SESSION_MOVING: 503,
  // AI agents: not found; no provider to reach (neither the company's nor the platform's); the
  // provider refused the key; it refused the request (e.g. an unknown model); it could not answer
  // (timeout, rate limit, its own failure).
  ERR_NO_PROMPT_FOUND: 404,
  ERR_AI_NOT_CONFIGURED: 400,
  ERR_AI_PROVIDER_AUTH: 400,
  ERR_AI_PROVIDER_REQUEST: 400,
  // The provider (a server the company or the operator named) is down: 424, not a gateway error.
  ERR_AI_PROVIDER_UNAVAILABLE: 424,
  // The agent sent every answer its plan allows this month (SPEC §9): never an HTTP answer, the reason
  // a conversation went to a person, shown on the agent's row.
  ERR_AI_QUOTA_EXCEEDED: 403,
  // The agents' co-pilot (a reply suggestion, a summary) has no message of the conversation to work
  // from.
  ERR_AI_NO_CONVERSATION: 400,
  // Queue integrations: not found; another of the company has that name. Dialogflow (a session test):
  // Google refused the key; the project or agent does not exist; it refused the request; it could not
  // answer.
  ERR_NO_INTEGRATION_FOUND: 404,
  ERR_INTEGRATION_NAME_EXISTS: 409,
  ERR_DIALOGFLOW_AUTH: 400,
  ERR_DIALOGFLOW_NOT_FOUND: 400,
  ERR_DIALOGFLOW_INVALID: 400,
  ERR_DIALOGFLOW_UNAVAILABLE: 424,
  // Uploads: one request's files together pass UPLOAD_REQUEST_MAX_MB (details.maxMb); the company's
  // stored files would pass its plan's storage (details.usedBytes, limitBytes).
  ERR_UPLOAD_REQUEST_TOO_LARGE: 413,
  ERR_STORAGE_QUOTA_EXCEEDED: 403,
  // GET /health/ready: the node is starting, shutting down, or a service it needs does not answer
  // (details.state, details.checks).
  ERR_NOT_READY: 503,
  // Files: a download's Range starts past the file's end; the file store (S3) is not reachable.
  ERR_RANGE_NOT_SATISFIABLE: 416,
  ERR_STORAGE_UNAVAILABLE: 503,
  // Web Push (issue 41): a browser subscription whose endpoint is not an https address, or whose
  // keys are not a P-256 public key and a 16-byte secret.
  ERR_PUSH_SUBSCRIPTION_INVALID: 400,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export type ErrorBody = {
  error: ErrorCode;
  message: string;
  fields?: Record<string, string[]>;
  // What the screen needs to explain the refusal (e.g. who holds the open ticket).
  details?: Record<string, unknown>;
};

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && value in errorStatus;
