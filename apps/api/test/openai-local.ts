import { OPENAI_KEY, startFakeOpenAi } from './fake-openai';

// `npm run openai:local`: the tests' local OpenAI-compatible server, to try the assistant, the
// conversation analysis and voice notes on a machine without an OpenAI key (or internet). Start it,
// then the product with the two variables it prints; replies are deterministic and built from what
// the customer wrote.

const port = Number(process.env.OPENAI_LOCAL_PORT ?? 4010);
const fake = await startFakeOpenAi({ port });
process.stdout.write(
  [
    `Local OpenAI stand-in on ${fake.url} (key ${OPENAI_KEY})`,
    'Start the product with:',
    `  OPENAI_BASE_URL=${fake.url} OPENAI_API_KEY=${OPENAI_KEY} npm start`,
    '',
  ].join('\n'),
);

// Stopping with Ctrl+C (or a process manager) closes the open connections, so the port is free at once.
const stop = () => void fake.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
