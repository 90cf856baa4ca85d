import { companyTimeZone } from '../../platform/time-zones';
import {
  HANDOFF_TOOL,
  estimateTokens,
  newestTurns,
  type SandboxChatInput,
  type SandboxChatResponse,
} from '@atendi/shared';
import { asc, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps';
import { queues } from '../../db/schema';
import type { AuthContext } from '../../platform/context';
import { fillVariables } from '../tickets';
import { addUsage, analyseConversation, askAgent, clientFor, providerFailure } from './ai-client';
import { findPromptRow } from './prompts.service';
import { assertTokensLeft, meterAi } from './ai-usage';
import {
  citationsIn,
  knowledgeInstructions,
  questionOf,
  relevantPassages,
} from './knowledge-answers';

// POST /prompt/{id}/sandbox-chat: the agent answers a conversation typed by an admin exactly as it
// would answer a customer (same system prompt, variables, window of newest messages and hand-off
// tool), then a second request with structured output (JSON schema) reads the customer's mood and
// the data the conversation holds. Nothing is stored.

type Deps = Pick<AppDeps, 'db' | 'config' | 'secrets' | 'outbound' | 'knowledge'>;

export const sandboxChat = async (
  deps: Deps,
  ctx: AuthContext,
  id: number,
  input: SandboxChatInput,
): Promise<SandboxChatResponse> => {
  const prompt = await findPromptRow(deps.db, ctx, id);
  const turns = newestTurns(input.turns, input.maxMessages ?? prompt.maxMessages);
  const variables = {
    contactName: input.contactName?.trim() || 'Cliente',
    timeZone: await companyTimeZone(deps, ctx.companyId),
  };
  let system = fillVariables(prompt.prompt, { ...variables, now: new Date() });
  const queueNames = (
    await deps.db
      .select({ name: queues.name })
      .from(queues)
      .where(eq(queues.companyId, ctx.companyId))
      .orderBy(asc(queues.name))
      .limit(50)
  ).map((q) => q.name);
  await assertTokensLeft(deps, ctx.companyId);
  const client = await clientFor(deps, ctx.companyId);
  // An agent with knowledge searches it as it would for a customer; the sandbox shows what it found.
  const passages =
    prompt.knowledge !== 'none' ? await relevantPassages(deps, prompt, questionOf(turns)) : null;
  if (passages) system = `${system}\n\n${knowledgeInstructions(passages, HANDOFF_TOOL)}`;
  try {
    const reply = await askAgent(client, prompt, system, turns, queueNames);
    await meterAi(deps, ctx.companyId, 'sandbox', reply.usage);
    const { text, cited } = passages
      ? citationsIn(reply.text, passages)
      : { text: reply.text, cited: [] };
    // Handing over, the contact would also get the agent's hand-off message.
    const handoffMessage = reply.handoff
      ? fillVariables(prompt.handoffMessage, { ...variables, now: new Date() }).trim()
      : '';
    const { analysis, usage } = await analyseConversation(client, prompt.model, [
      ...turns,
      ...[text, handoffMessage]
        .filter(Boolean)
        .map((content) => ({ role: 'assistant' as const, content })),
    ]);
    await meterAi(deps, ctx.companyId, 'sandbox', usage);
    return {
      text,
      response: text,
      final: analysis.final || Boolean(reply.handoff),
      sentiment: analysis.sentiment,
      structured: { datos_cliente: analysis.datos_cliente, datos_pedido: analysis.datos_pedido },
      handoff: reply.handoff
        ? {
            queue: reply.handoff.queue,
            reason: reply.handoff.reason,
            message: handoffMessage || null,
          }
        : null,
      tokens: {
        estimate: estimateTokens([system, ...turns.map((t) => t.content)]),
        usage: addUsage(reply.usage, usage),
      },
      knowledge: passages && {
        passages: passages.map((p) => ({
          number: p.number,
          chunkId: p.chunkId,
          documentId: p.documentId,
          documentName: p.documentName,
          page: p.page,
          ordinal: p.ordinal,
          text: p.text,
          cited: cited.includes(p),
        })),
      },
    };
  } catch (error) {
    throw providerFailure(error);
  }
};
