import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../deps';
import type { Db } from '../../db/client';
import { connectionHistory, whatsapps } from '../../db/schema';
import type { EventOf } from '../../events/domain-events';
import { mailCompanyAdmins, type AdminNotice } from '../../platform/admin-mail';
import type { AuthContext } from '../../platform/context';
import { AppError } from '../../platform/errors';

// A number's health (issue 39): every status change of a connection is kept with why, and the
// company's admins are emailed when a number that was working drops (at most once an hour a
// connection), so they hear of it before customers do; the screens show it (SPEC §2's "!" and the
// banner over the app, from the connections' live status).

const HISTORY_SIZE = 100;
const ALERT_EVERY_MS = 3600_000;

// In the transaction that changed the status (connection.status recorder).
export const recordConnectionHistory = async (tx: Db, event: EventOf<'connection.status'>) => {
  await tx.insert(connectionHistory).values({
    companyId: event.companyId,
    whatsappId: event.whatsappId,
    status: event.after,
    previous: event.before,
    cause: event.cause,
    detail: event.detail,
  });
};

export const connectionHistoryOf = async (db: Db, ctx: AuthContext, whatsappId: number) => {
  const [owned] = await db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(and(eq(whatsapps.id, whatsappId), eq(whatsapps.companyId, ctx.companyId)));
  if (!owned) throw new AppError('ERR_NO_WAPP_FOUND');
  const rows = await db
    .select()
    .from(connectionHistory)
    .where(eq(connectionHistory.whatsappId, whatsappId))
    .orderBy(desc(connectionHistory.id))
    .limit(HISTORY_SIZE);
  return {
    entries: rows.map((row) => ({
      id: row.id,
      status: row.status,
      previous: row.previous,
      cause: row.cause,
      detail: row.detail,
      at: row.createdAt,
    })),
  };
};

// Whether a change is a number dropping: it was working (or reconnecting) and WhatsApp or the provider
// ended it; a person's disconnect, a QR nobody scanned and a first start are not.
export const isDrop = (event: Pick<EventOf<'connection.status'>, 'before' | 'after' | 'cause'>) =>
  event.after === 'DISCONNECTED' &&
  (event.before === 'CONNECTED' || event.before === 'TIMEOUT' || event.before === 'OPENING') &&
  event.cause !== null &&
  event.cause !== 'qr_timeout';

const CAUSE_TEXT: Record<string, [es: string, en: string, pt: string]> = {
  logged_out: [
    'el teléfono cerró la sesión: hace falta escanear un código QR nuevo',
    'the phone logged it out: a new QR code must be scanned',
    'o celular encerrou a sessão: é preciso escanear um novo QR code',
  ],
  replaced: [
    'otro dispositivo tomó la sesión',
    'another device took the session',
    'outro dispositivo assumiu a sessão',
  ],
  banned: [
    'WhatsApp no deja entrar al número (bloqueado o restringido)',
    'WhatsApp does not let the number in (banned or restricted)',
    'o WhatsApp não permite a entrada do número (bloqueado ou restrito)',
  ],
  network: [
    'no se puede llegar a WhatsApp',
    'WhatsApp cannot be reached',
    'não é possível alcançar o WhatsApp',
  ],
  unauthorized: [
    'Meta rechazó el token de acceso de la Cloud API',
    'Meta refused the Cloud API access token',
    'a Meta recusou o token de acesso da Cloud API',
  ],
  not_configured: [
    'faltan los datos de la Cloud API',
    'the Cloud API details are missing',
    'faltam os dados da Cloud API',
  ],
};

type Mailing = Pick<AppDeps, 'db' | 'mailer'>;

// Marks the connection's newest entry of `status` as told, unless an entry of it was told in the last
// hour; answers whether this call marked it (the one that sends the emails).
const markAlerted = async (
  db: Db,
  whatsappId: number,
  status: 'DISCONNECTED' | 'TIMEOUT',
  now: Date,
) => {
  const since = new Date(now.getTime() - ALERT_EVERY_MS);
  const marked = await db
    .update(connectionHistory)
    .set({ alerted: true })
    .where(
      and(
        eq(
          connectionHistory.id,
          sql`(select max(h.id) from ${connectionHistory} h
            where h.whatsapp_id = ${whatsappId} and h.status = ${status})`,
        ),
        sql`not exists (select 1 from ${connectionHistory} h where h.whatsapp_id = ${whatsappId}
            and h.alerted and h.created_at > ${since.toISOString()}::timestamptz)`,
      ),
    )
    .returning({ id: connectionHistory.id });
  return marked.length > 0;
};

// The connection's admins hear of it by email (platform/admin-mail.ts), the connection named with
// its number.
const emailAdmins = async (
  deps: Mailing,
  log: FastifyBaseLogger,
  target: { companyId: number; whatsappId: number },
  what: (connection: string, name: string) => AdminNotice,
) => {
  const [connection] = await deps.db
    .select({ name: whatsapps.name, number: whatsapps.number })
    .from(whatsapps)
    .where(eq(whatsapps.id, target.whatsappId));
  if (!connection) return;
  const named = `${connection.name}${connection.number ? ` (${connection.number})` : ''}`;
  await mailCompanyAdmins(deps, target.companyId, what(named, connection.name), (err) =>
    log.warn({ err, whatsappId: target.whatsappId }, 'connection notice not sent'),
  );
};

// After the commit: the admins of the company hear of a drop by email, once an hour a connection at
// most.
export const alertConnectionDrop =
  (deps: Mailing, log: FastifyBaseLogger) => async (event: EventOf<'connection.status'>) => {
    if (!isDrop(event)) return;
    if (!(await markAlerted(deps.db, event.whatsappId, 'DISCONNECTED', new Date()))) return;
    const [es, en, pt] = CAUSE_TEXT[event.cause ?? ''] ?? ['', '', ''];
    await emailAdmins(deps, log, event, (connection, name) => ({
      subject: `Conexión desconectada: ${name} / Connection disconnected / Conexão desconectada`,
      es:
        `La conexión ${connection} de {company} se desconectó: ${es}. Los mensajes de sus clientes ` +
        `no llegan hasta que vuelva a conectarla en Conexiones.`,
      en:
        `The connection ${connection} disconnected: ${en}. Customers' messages do not arrive until ` +
        `it is connected again in Connections.`,
      pt:
        `A conexão ${connection} de {company} foi desconectada: ${pt}. As mensagens dos seus clientes ` +
        `não chegam até que ela seja conectada novamente em Conexões.`,
    }));
  };

// A number WhatsApp keeps dropping is retried for ever (TIMEOUT, reconnecting): once it has been so
// for CONNECTION_ALERT_MINUTES, its admins hear of it too (the same hourly limit).
export const CONNECTION_WATCH_JOB = 'connection-watch';
export const watchStuckConnections = async (
  deps: Mailing & { config: { connectionAlertMinutes: number } },
  log: FastifyBaseLogger,
  now: Date,
) => {
  const cutoff = new Date(now.getTime() - deps.config.connectionAlertMinutes * 60_000);
  const stuck = await deps.db
    .select({ whatsappId: whatsapps.id, companyId: whatsapps.companyId })
    .from(whatsapps)
    .where(
      and(
        eq(whatsapps.status, 'TIMEOUT'),
        sql`(select h.created_at from ${connectionHistory} h where h.whatsapp_id = ${whatsapps.id}
          order by h.id desc limit 1) <= ${cutoff.toISOString()}::timestamptz`,
      ),
    );
  for (const target of stuck) {
    if (!(await markAlerted(deps.db, target.whatsappId, 'TIMEOUT', now))) continue;
    const minutes = deps.config.connectionAlertMinutes;
    await emailAdmins(deps, log, target, (connection, name) => ({
      subject: `Conexión con problemas: ${name} / Connection in trouble / Conexão com problemas`,
      es:
        `La conexión ${connection} de {company} intenta reconectarse hace más de ${minutes} minutos ` +
        `sin lograrlo: los mensajes de sus clientes pueden no estar llegando. Revísela en Conexiones.`,
      en:
        `The connection ${connection} has been trying to reconnect for more than ${minutes} minutes: ` +
        `customers' messages may not be arriving. Check it in Connections.`,
      pt:
        `A conexão ${connection} de {company} tenta se reconectar há mais de ${minutes} minutos sem ` +
        `conseguir: as mensagens dos seus clientes podem não estar chegando. Verifique-a em Conexões.`,
    }));
  }
};
