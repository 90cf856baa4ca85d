import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { reloadPage } from '../test/module-mocks';
import { TestProviders } from '../test/test-providers';
import { setupUser } from '../test/user-event';
import {
  offerUpdate,
  watchForUpdates,
  type UpdateRegistration,
  type WorkerContainer,
} from './app-updates';

// A service worker as the browser reports it: its state changes with a statechange event.
class FakeWorker extends EventTarget {
  state: ServiceWorkerState = 'installing';
  postMessage = vi.fn();
  become(state: ServiceWorkerState) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  // A deployment's new worker starts installing.
  found() {
    const worker = new FakeWorker();
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
    return worker;
  }
}

// The page's navigator.serviceWorker: the worker in charge of it, null on a first visit.
class FakeContainer extends EventTarget {
  constructor(public controller: ServiceWorker | null) {
    super();
  }
  takenOver() {
    this.controller = {} as ServiceWorker;
    this.dispatchEvent(new Event('controllerchange'));
  }
}

const running = () => new FakeContainer({} as ServiceWorker);

const watch = (registration: FakeRegistration, container: FakeContainer, offer = vi.fn()) => {
  watchForUpdates(
    registration as unknown as UpdateRegistration,
    container as unknown as WorkerContainer,
    offer,
  );
  return offer;
};

describe('app updates', () => {
  it('offers a deployment once its worker is installed, and reloads once into it after Actualizar', async () => {
    const registration = new FakeRegistration();
    const container = running();
    const offer = watch(registration, container, vi.fn(offerUpdate));
    render(<TestProviders>{null}</TestProviders>);

    const worker = registration.found();
    expect(offer).not.toHaveBeenCalled();
    worker.become('installed');
    expect(offer).toHaveBeenCalledTimes(1);

    // Nothing happens until the agent chooses: the new worker waits.
    await screen.findByText('Hay una nueva versión');
    expect(worker.postMessage).not.toHaveBeenCalled();
    expect(reloadPage).not.toHaveBeenCalled();

    const user = setupUser();
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    expect(worker.postMessage).toHaveBeenCalledExactlyOnceWith({ type: 'SKIP_WAITING' });
    expect(screen.getByRole('button', { name: 'Actualizar' }).hasAttribute('disabled')).toBe(true);
    expect(reloadPage).not.toHaveBeenCalled();

    // The new worker takes over: the page reloads into the new version, once.
    container.takenOver();
    container.takenOver();
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('offers a version that was already waiting when the app started', () => {
    const registration = new FakeRegistration();
    registration.waiting = new FakeWorker();
    registration.waiting.state = 'installed';
    const offer = watch(registration, running());
    expect(offer).toHaveBeenCalledTimes(1);
    offer.mock.calls[0][0]();
    expect(registration.waiting.postMessage).toHaveBeenCalledWith({ type: 'SKIP_WAITING' });
  });

  it('neither asks nor reloads on the first visit, when the first worker takes over', () => {
    const registration = new FakeRegistration();
    const container = new FakeContainer(null);
    const offer = watch(registration, container);
    registration.found().become('installed');
    container.takenOver();
    expect(offer).not.toHaveBeenCalled();
    expect(reloadPage).not.toHaveBeenCalled();

    // A later deployment is offered as usual.
    registration.found().become('installed');
    expect(offer).toHaveBeenCalledTimes(1);
  });

  it('reloads a tab of the old version when another tab applied the update', () => {
    const container = running();
    const offer = watch(new FakeRegistration(), container);
    container.takenOver();
    expect(offer).not.toHaveBeenCalled();
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });
});
