// The plans module's public surface: other modules import from '../plans' (this file) only.
export { assertPlanLimit, getPlan, serializePlan, updatePlan } from './plans.service';
