import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { reloadPage } from '../lib/browser';

// The parts of the browser's service worker objects this file uses (tests hand in fakes).
type WaitingWorker = Pick<ServiceWorker, 'state' | 'postMessage' | 'addEventListener'>;
export type UpdateRegistration = Pick<ServiceWorkerRegistration, 'waiting' | 'addEventListener'> & {
  readonly installing: WaitingWorker | null;
};
export type WorkerContainer = Pick<ServiceWorkerContainer, 'controller' | 'addEventListener'>;

// A tab left open for days still learns of a deployment.
const UPDATE_CHECK_MS = 60 * 60 * 1000;

// Calls offer(apply) when a new deployment's worker is installed and waits behind the one running
// this tab (service-worker.js never skips waiting by itself: this tab's code and cached files are one
// build). apply() lets it take over; every tab of the old version then reloads, once, into the new.
// The first visit's worker takes over at once and offers nothing.
export const watchForUpdates = (
  registration: UpdateRegistration,
  container: WorkerContainer,
  offer: (apply: () => void) => void,
) => {
  let controlled = !!container.controller;
  let reloading = false;
  container.addEventListener('controllerchange', () => {
    if (controlled && !reloading) {
      reloading = true;
      reloadPage();
    }
    controlled = true;
  });
  const offerWorker = (worker: WaitingWorker) =>
    offer(() => worker.postMessage({ type: 'SKIP_WAITING' }));
  if (registration.waiting && container.controller) offerWorker(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed' && container.controller) offerWorker(worker);
    });
  });
};

const UpdatePrompt = ({ apply }: { apply: () => void }) => {
  const { t } = useTranslation();
  const [applying, setApplying] = useState(false);
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', justifyContent: 'space-between' }}
    >
      <span>{t('app.update.available')}</span>
      <Button
        size="small"
        variant="contained"
        disabled={applying}
        onClick={() => {
          setApplying(true);
          apply();
        }}
      >
        {t('app.update.apply')}
      </Button>
    </Stack>
  );
};

// "Hay una nueva versión — Actualizar", until the agent chooses (one at a time).
export const offerUpdate = (apply: () => void) => {
  toast.info(<UpdatePrompt apply={apply} />, {
    toastId: 'app-update',
    autoClose: false,
    closeOnClick: false,
    draggable: false,
  });
};

// Production builds only (main.tsx): the dev server and the tests have no /sw.js.
export const registerServiceWorker = async () => {
  if (!('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.register('/sw.js');
  watchForUpdates(registration, navigator.serviceWorker, offerUpdate);
  setInterval(() => {
    registration.update().catch(() => undefined);
  }, UPDATE_CHECK_MS);
};
