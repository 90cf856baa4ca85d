import { can } from '@atendi/shared';
import { useIntegrationOptions } from '../api/queries/integrations';
import { useCurrentSession } from '../api/session';
import type { FieldValues } from 'react-hook-form';
import {
  RecordField,
  RecordSelect,
  type RecordFieldProps,
  type RecordSelectFieldProps,
} from './record-select';

// Integrations are the admins' (integrations:manage) and need the plan's useIntegrations.
export const useCanPickIntegration = () => {
  const { user } = useCurrentSession();
  return can(user, 'integrations:manage') && Boolean(user.company?.plan?.useIntegrations);
};

// Silent: without the list the select still offers "none" and keeps the saved integration.
const useIntegrationChoices = () =>
  useIntegrationOptions({
    silent: true,
    select: (options) => options.map(({ id, name }) => ({ id, name })),
  });

// The "Integration" select of connections and queues; its value is the id as text, '' for none.
export const IntegrationSelect = (props: RecordSelectFieldProps) => (
  <RecordSelect choices={useIntegrationChoices()} texts="integrationSelect" {...props} />
);

// The integration of a connection or a queue in its form; nothing where the company cannot pick one.
export const IntegrationField = <T extends FieldValues, Sent extends FieldValues>(
  props: RecordFieldProps<T, Sent>,
) => (useCanPickIntegration() ? <RecordField {...props} Select={IntegrationSelect} /> : null);
