import { useTranslation } from 'react-i18next';
import { webhookEventTypes, type WebhookEventType } from '@atendi/shared';

// The events an endpoint may hear, grouped by what they are about (the part before the dot), in
// the order the form shows them.
export const webhookEventGroups = [
  'ticket',
  'message',
  'contact',
  'connection',
  'campaign',
  'sla',
  'rating',
] as const;
export type WebhookEventGroup = (typeof webhookEventGroups)[number];

export const eventsOfGroup = (group: WebhookEventGroup): WebhookEventType[] =>
  webhookEventTypes.filter((type) => type.startsWith(`${group}.`));

// "Ticket creado" for ticket.created; a type this screen does not know is shown as the server wrote
// it.
export const useEventLabel = () => {
  const { t } = useTranslation();
  return (type: string) => t(`settings.webhooks.eventNames.${type}`, { defaultValue: type });
};

export const endpointName = (endpoint: { description: string; url: string }) =>
  endpoint.description || endpoint.url;
