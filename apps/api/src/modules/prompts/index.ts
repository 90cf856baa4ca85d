// What other modules may take of the AI agents' module: the one door to the company's (or the
// platform's) OpenAI-compatible server, and its failures as the API tells them.
export {
  analyseConversation,
  clientFor,
  embedTexts,
  providerFailure,
  type Usage,
} from './ai-client';
export { planAllowsAi, turnsOf } from './agent';
export { assertTokensLeft, meterAi } from './ai-usage';
