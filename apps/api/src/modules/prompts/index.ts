// What other modules may take of the AI agents' module: the one door to the company's (or the
// platform's) OpenAI-compatible server, and its failures as the API tells them; for live insight
// (modules/insight), the sandbox's analysis, the agents' reading of a conversation and the plan check;
// for the co-pilot (modules/copilot), the request's length and the answer's usage.
export {
  analyseConversation,
  clientFor,
  embedTexts,
  lengthAndTemperature,
  providerFailure,
  usageOf,
} from './ai-client';
export { contentOf, turnsOf } from './agent';
export { planAllowsAi, usesAiFeature, usesAiFeatureSql } from './ai-features';
export { assertTokensLeft, meterAi } from './ai-usage';
