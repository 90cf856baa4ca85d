import { can } from '@atendi/shared';
import { usePrompts } from '../api/queries/prompts';
import { useCurrentSession } from '../api/session';
import type { FieldValues } from 'react-hook-form';
import {
  RecordField,
  RecordSelect,
  type RecordFieldProps,
  type RecordSelectFieldProps,
} from './record-select';

// AI agents are the admins' (prompts:manage) and need the plan's useOpenAi.
export const useCanPickPrompt = () => {
  const { user } = useCurrentSession();
  return can(user, 'prompts:manage') && Boolean(user.company?.plan?.useOpenAi);
};

// Silent: without the list the select still offers "none" and keeps the saved agent.
const usePromptChoices = () =>
  usePrompts({
    silent: true,
    select: (data) => data.prompts.map(({ id, name }) => ({ id, name })),
  });

// The "AI agent" select of connections and queues; its value is the agent's id as text, '' for none.
const PromptSelect = (props: RecordSelectFieldProps) => (
  <RecordSelect choices={usePromptChoices()} texts="promptSelect" {...props} />
);

// The AI agent that takes a queue's conversations outside its hours (issue 36).
const OutOfHoursPromptSelect = (props: RecordSelectFieldProps) => (
  <RecordSelect choices={usePromptChoices()} texts="outOfHoursPromptSelect" {...props} />
);

export const OutOfHoursPromptField = <T extends FieldValues, Sent extends FieldValues>(
  props: RecordFieldProps<T, Sent>,
) => (useCanPickPrompt() ? <RecordField {...props} Select={OutOfHoursPromptSelect} /> : null);

// The AI agent of a connection or a queue in its form; nothing where the company cannot pick one.
export const PromptField = <T extends FieldValues, Sent extends FieldValues>(
  props: RecordFieldProps<T, Sent>,
) => (useCanPickPrompt() ? <RecordField {...props} Select={PromptSelect} /> : null);
