// The companies module's public surface: other modules import from '../companies' (this file) only.
export {
  announceCompany,
  companyAiUsage,
  everyCompanyId,
  STOP_BILLING_QUEUE,
  type StopBillingJob,
} from './companies.service';
