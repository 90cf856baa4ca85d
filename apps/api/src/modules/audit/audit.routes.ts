import type { FastifyInstance } from 'fastify';
import { auditContract as audit } from '@atendi/shared';
import { contractRoutes } from '../../platform/contract-routes';
import { sendCsv } from '../../platform/csv';
import { auditCsv, listAudit } from './audit.service';

// Issue 37: the audit log, for admins (their company's) and super users.
export const auditRoutes = async (app: FastifyInstance) => {
  const route = contractRoutes(app);
  const access = { access: { permission: 'audit:view' as const } };
  route(audit.listAudit, access, async (request) =>
    listAudit(app.deps, request.auth, request.query),
  );
  route(audit.downloadAudit, access, async (request, reply) =>
    sendCsv(reply, 'audit.csv', await auditCsv(app.deps, request.auth, request.query)),
  );
};
