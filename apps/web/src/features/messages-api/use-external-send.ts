import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import type { ExternalSendInput } from '@atendi/shared';
import { toastError } from '../../api/toasts';
import {
  answerError,
  isSuccess,
  newIdempotencyKey,
  sendExternalMessage,
  type ExternalSendAnswer,
} from './messages-api.api';

// What the last send of a form got: the endpoint's answer, or none (the network failed).
export type SendResult = ({ kind: 'answer' } & ExternalSendAnswer) | { kind: 'noAnswer' };

// One test form's sends: a fresh Idempotency-Key for each, except that the same request retried
// after getting no answer keeps its key, so a send that did reach the server is not repeated.
export const useExternalSend = () => {
  const { t } = useTranslation();
  const [result, setResult] = useState<SendResult | null>(null);
  const inFlight = useRef(false);
  const unanswered = useRef<{ fingerprint: string; key: string } | null>(null);

  const send = async (
    token: string,
    payload: ExternalSendInput | FormData,
    fingerprint: string,
  ) => {
    if (inFlight.current) return;
    inFlight.current = true;
    const idempotencyKey =
      unanswered.current?.fingerprint === fingerprint
        ? unanswered.current.key
        : newIdempotencyKey();
    try {
      const answer = await sendExternalMessage({ token, payload, idempotencyKey });
      unanswered.current = null;
      setResult({ kind: 'answer', ...answer });
      if (isSuccess(answer)) toast.success(t('messagesApi.test.sent'));
      else toastError(answerError(answer));
    } catch (error) {
      unanswered.current = { fingerprint, key: idempotencyKey };
      setResult({ kind: 'noAnswer' });
      toastError(error);
    } finally {
      inFlight.current = false;
    }
  };

  return { result, send };
};
