import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';

// Every lazy component's loader, so that tests can fetch them all before they start.
const loaders: (() => Promise<unknown>)[] = [];

// A component whose code is fetched the first time it renders (React.lazy), with the fallback
// meanwhile: code that the first load (shell, inbox) does not need stays out of it. Once its code is
// here (rendered before, or preloaded) it renders at once, without the fallback first.
export const lazyComponent = <P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = null,
) => {
  let loaded: ComponentType<P> | undefined;
  const loadComponent = () =>
    load().then((component) => {
      loaded = component;
      return { default: component };
    });
  loaders.push(loadComponent);
  const Lazy = lazy(loadComponent);
  const LazyComponent = (props: P) => {
    // Chosen once per mount so that the component never remounts when this re-renders.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return (
      <Suspense fallback={fallback}>
        <Component {...props} />
      </Suspense>
    );
  };
  return Object.assign(LazyComponent, { preload: loadComponent });
};

// A dialog whose code is fetched when it first opens, not when the page that offers it renders.
// Once opened it stays mounted, so that it closes with its transition like any other dialog.
export const lazyDialog = <P extends { open: boolean }>(load: () => Promise<ComponentType<P>>) => {
  const Dialog = lazyComponent(load);
  return (props: P) => {
    const [hasOpened, setHasOpened] = useState(props.open);
    if (props.open && !hasOpened) setHasOpened(true);
    return hasOpened ? <Dialog {...props} /> : null;
  };
};

// Fetches every lazy component's code defined so far; afterwards they all render at once (tests).
export const preloadLazyComponents = () => Promise.all(loaders.map((load) => load()));
