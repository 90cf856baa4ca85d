// node scripts/container-smoke.mjs API_URL WEB_URL EMAIL PASSWORD: what scripts/container-check.sh
// asks of a running image: ready, the web app served with its runtime config, and a message from a
// simulated phone becoming a waiting conversation. Exits 1 naming the first thing that failed.
import { eventually } from '../apps/api/test/eventually.ts';

const [apiUrl, webUrl, email, password] = process.argv.slice(2);

const fail = (what) => {
  console.error(`container check failed: ${what}`);
  process.exit(1);
};
// The tests' wait-until (Node runs its TypeScript as is), failing the way this script does.
const until = (what, read, ms = 60_000) =>
  eventually(() => read().catch(() => undefined), Boolean, what, {
    timeoutMs: ms,
    everyMs: 500,
  }).catch(() => fail(what));

const ready = await until('ready', async () => {
  const res = await fetch(`${apiUrl}/health/ready`);
  return res.ok && res.json();
});
console.log(`ready: ${JSON.stringify(ready.checks)}`);

const page = await (await fetch(`${webUrl}/`)).text();
if (!page.includes('<div id="root">')) fail('the web app is not served');
const runtime = await (await fetch(`${webUrl}/runtime-config.js`)).text();
if (!runtime.includes(apiUrl.replace(/\/$/, '')) && !runtime.includes('apiUrl'))
  fail('the web app has no runtime config');
console.log('web app served');

const login = await fetch(`${apiUrl}/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email, password }),
});
if (!login.ok) fail(`login answered ${login.status}`);
const { token } = await login.json();
const call = async (method, route, body) => {
  const res = await fetch(`${apiUrl}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json().catch(() => undefined) };
};

const created = await call('POST', '/whatsapp', { name: 'Contenedor', provider: 'simulator' });
if (created.status !== 201 && created.status !== 200)
  fail(`a simulator connection: ${created.status} ${JSON.stringify(created.body)}`);
const id = created.body.id;
await until(
  'the simulator to pair',
  async () => (await call('POST', `/simulator/${id}/scan`)).status === 200,
);
const number = `5491155${String(Date.now()).slice(-6)}`;
const sent = await call('POST', `/simulator/${id}/inbound`, {
  from: number,
  body: 'Hola desde el contenedor',
});
if (sent.status !== 200) fail(`the inbound message: ${sent.status} ${JSON.stringify(sent.body)}`);
const ticket = await until('the message to become a conversation', async () => {
  const list = await call('GET', `/tickets?status=pending&showAll=true&searchParam=${number}`);
  return list.body?.tickets?.find((t) => t.contact?.number === number);
});
console.log(`message from ${number} is conversation ${ticket.id}, ${ticket.status}`);
