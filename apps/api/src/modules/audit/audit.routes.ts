import type { FastifyInstance } from 'fastify';
import { auditContract as audit } from '@atendi/shared';
import { audit as record, filtersOf } from '../../platform/audit';
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
  route(audit.downloadAudit, access, async (request, reply) => {
    const { auth, query } = request;
    const csv = await auditCsv(app.deps, auth, query);
    // The download itself, written after reading (the file does not hold its own entry), in the
    // log it was taken from (companyId 0: the platform's entries of none).
    const companyId = query.companyId ?? auth.companyId;
    await record(app.deps.db, {
      companyId: companyId === 0 ? null : companyId,
      userId: auth.userId,
      action: 'export.audit',
      target: 'file:audit.csv',
      detail: filtersOf(query),
      address: auth.address,
    });
    return sendCsv(reply, 'audit.csv', csv);
  });
};
