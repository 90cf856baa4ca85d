import type { CompanyView } from '@atendi/shared';
import { syncSessionCompany } from '../../api/http-client';
import { useCurrentSession } from '../../api/session';
import { useCompanyEvent } from '../../api/socket';

type CompanyEvent = { action?: string; company?: CompanyView };

// company-{id}-company: a payment, the overdue/suspended lifecycle or a super user's edit changed
// the user's own company. The session takes the new status and due date without a new login, so
// CompanyStatusGate lets the user in or sends them to /restricted-access at once. A super user's
// room also carries other companies' changes (the companies tab): those are not the session's.
export const useLiveCompanyStatus = () => {
  const { user } = useCurrentSession();
  useCompanyEvent<CompanyEvent>('company', (payload) => {
    const company = payload?.company;
    if (payload?.action !== 'update' || !company || company.id !== user.companyId) return;
    syncSessionCompany({
      status: company.effectiveStatus ?? company.status,
      dueDate: company.dueDate,
    }).catch(() => undefined);
  });
};
