import { refusalIn } from '../../platform/outbound';
import { z } from 'zod';
import type { FlowBubble } from '../../db/schema';

// Typebot's public chat API (docs.typebot.io, "API > Chat"), as typebot.io and self-hosted Typebot
// (v2.20+) serve it at the integration's URL:
//   POST {url}/api/v1/typebots/{publicId}/startChat      { prefilledVariables, textBubbleContentFormat }
//   POST {url}/api/v1/sessions/{sessionId}/continueChat  { message: { type: 'text', text } }
// Both answer the bot's bubbles (`messages`) and, while the flow waits for the contact, the `input` it
// waits on; no input means the flow ended. Everything it answers is checked here: a flow is an outside
// service like any other.

const richTextNode: z.ZodType<RichTextNode> = z.lazy(() =>
  z
    .object({
      text: z.string().optional(),
      type: z.string().optional(),
      url: z.string().optional(),
      bold: z.boolean().optional(),
      italic: z.boolean().optional(),
      strikethrough: z.boolean().optional(),
      children: z.array(richTextNode).optional(),
    })
    .passthrough(),
);
type RichTextNode = {
  text?: string;
  type?: string;
  url?: string;
  bold?: boolean;
  italic?: boolean;
  strikethrough?: boolean;
  children?: RichTextNode[];
};

const messageSchema = z
  .object({
    type: z.string(),
    content: z
      .object({
        type: z.string().optional(),
        richText: z.array(richTextNode).optional(),
        markdown: z.string().optional(),
        url: z.string().optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

const inputSchema = z
  .object({
    type: z.string(),
    items: z
      .array(
        z.object({ content: z.string().optional(), title: z.string().optional() }).passthrough(),
      )
      .optional(),
  })
  .passthrough();

const chatSchema = z.object({
  sessionId: z.string().min(1).max(200).optional(),
  messages: z.array(messageSchema).max(100).optional().default([]),
  input: inputSchema.nullish(),
});

// One turn of the flow, ready for WhatsApp.
export type TypebotTurn = {
  sessionId?: string;
  bubbles: FlowBubble[];
  // The options of a choice input the flow waits on (answerable by number).
  choices: string[];
  // No input awaited: the flow is over.
  ended: boolean;
};

export class TypebotError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    // The session is unknown to Typebot (expired or deleted there): start a new one.
    readonly sessionGone = false,
    // Retrying cannot help (the bot does not exist, the request is refused).
    readonly permanent = false,
  ) {
    super(message);
  }
}

// Slate rich text (Typebot's default bubble format) as WhatsApp text: *bold*, _italic_, ~struck~.
const leafText = (node: RichTextNode): string => {
  if (node.children) {
    const inner = node.children.map(leafText).join('');
    return node.type === 'a' && node.url && node.url !== inner ? `${inner} (${node.url})` : inner;
  }
  let text = node.text ?? '';
  if (!text.trim()) return text;
  if (node.bold) text = `*${text}*`;
  if (node.italic) text = `_${text}_`;
  if (node.strikethrough) text = `~${text}~`;
  return text;
};
const richTextToWhatsApp = (nodes: RichTextNode[]) => nodes.map(leafText).join('\n');

// Markdown bubbles (textBubbleContentFormat: markdown) carry **bold** and ~~struck~~.
const markdownToWhatsApp = (markdown: string) =>
  markdown
    .replace(/\*\*(.+?)\*\*/g, '*$1*')
    .replace(/~~(.+?)~~/g, '~$1~')
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '$1 ($2)');

const MEDIA_KINDS = { image: 'image', video: 'video', audio: 'audio' } as const;

const bubblesOf = (messages: z.infer<typeof messageSchema>[]): FlowBubble[] => {
  const bubbles: FlowBubble[] = [];
  for (const message of messages) {
    const content = message.content;
    if (message.type === 'text') {
      const text = (
        content?.richText
          ? richTextToWhatsApp(content.richText)
          : markdownToWhatsApp(content?.markdown ?? '')
      ).trim();
      if (text) bubbles.push({ text: text.slice(0, 4096) });
    } else if (message.type in MEDIA_KINDS && content?.url && /^https?:\/\//i.test(content.url)) {
      bubbles.push({
        mediaUrl: content.url,
        kind: MEDIA_KINDS[message.type as keyof typeof MEDIA_KINDS],
      });
    } else if (message.type === 'embed' && content?.url && /^https?:\/\//i.test(content.url)) {
      bubbles.push({ text: content.url });
    }
    // Other bubbles (custom embeds, client-side scripts) have no WhatsApp form and are left out.
  }
  return bubbles;
};

// The options of a choice (or picture choice) input.
const choicesOf = (input: z.infer<typeof inputSchema> | null | undefined) =>
  (input?.items ?? [])
    .map((item) => (item.content ?? item.title ?? '').trim())
    .filter(Boolean)
    .slice(0, 50);

// The options as one WhatsApp text: "1 - Ventas", one per line.
export const choicesText = (choices: string[]) =>
  choices.map((choice, index) => `${index + 1} - ${choice}`).join('\n');

const call = async (
  fetcher: typeof fetch,
  url: string,
  body: object,
  timeoutMs: number,
  path: 'start' | 'continue',
) => {
  let res: Response;
  try {
    res = await fetcher(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const refusal = refusalIn(error);
    if (refusal) throw new TypebotError(refusal.message, null, false, true);
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new TypebotError(
      timedOut ? `Typebot did not answer within ${timeoutMs} ms` : 'Typebot could not be reached',
      null,
    );
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    const gone = path === 'continue' && res.status === 404;
    throw new TypebotError(
      `Typebot answered HTTP ${res.status}${res.status === 404 && path === 'start' ? ' (is the slug right and the bot published?)' : ''}`,
      res.status,
      gone,
      res.status >= 400 && res.status < 500 && res.status !== 429,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TypebotError('Typebot answered something that is not JSON', res.status);
  }
  const parsed = chatSchema.safeParse(json);
  if (!parsed.success)
    throw new TypebotError('Typebot answered a chat this version cannot read', res.status);
  return parsed.data;
};

const base = (url: string) => url.replace(/\/+$/, '');

export const startChat = async (
  fetcher: typeof fetch,
  url: string,
  slug: string,
  variables: Record<string, string>,
  timeoutMs: number,
): Promise<TypebotTurn> => {
  const chat = await call(
    fetcher,
    `${base(url)}/api/v1/typebots/${encodeURIComponent(slug)}/startChat`,
    { prefilledVariables: variables, textBubbleContentFormat: 'richText' },
    timeoutMs,
    'start',
  );
  if (!chat.sessionId) throw new TypebotError('Typebot started a chat without a session', 200);
  return {
    sessionId: chat.sessionId,
    bubbles: bubblesOf(chat.messages),
    choices: choicesOf(chat.input),
    ended: !chat.input,
  };
};

export const continueChat = async (
  fetcher: typeof fetch,
  url: string,
  sessionId: string,
  text: string,
  timeoutMs: number,
): Promise<TypebotTurn> => {
  const chat = await call(
    fetcher,
    `${base(url)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`,
    { message: { type: 'text', text }, textBubbleContentFormat: 'richText' },
    timeoutMs,
    'continue',
  );
  return { bubbles: bubblesOf(chat.messages), choices: choicesOf(chat.input), ended: !chat.input };
};
