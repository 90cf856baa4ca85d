// The companies module's public surface: other modules import from '../companies' (this file) only.
export {
  announceCompany,
  everyCompanyId,
  STOP_BILLING_QUEUE,
  type StopBillingJob,
} from './companies.service';
