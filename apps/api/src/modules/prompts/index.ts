// What other modules may take of the AI agents' module: the one door to the company's (or the
// platform's) OpenAI-compatible server, and its failures as the API tells them.
export { clientFor, embedTexts, providerFailure } from './ai-client';
export { assertTokensLeft, meterAi } from './ai-usage';
