import { useEffect, useEffectEvent, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { isCompanyActive, useCurrentSession, useSession, type PlanFeature } from '../api/session';
import { FullPageSpinner } from '../components/full-page-spinner';

// SPEC §9: permission failures redirect home after 1 s.
export const PERMISSION_REDIRECT_MS = 1000;

// SPEC §2: routes that stay usable while the company is not active.
const statusExemptPaths = [
  '/subscriptions',
  '/restricted-access',
  '/success',
  '/cancel',
  '/announcements',
  '/subscribe',
];

export const RequireAuth = () => {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner />;
  if (status !== 'authenticated')
    return <Navigate to="/login" replace state={{ from: location }} />;
  return <Outlet />;
};

export const PublicOnly = () => {
  const { status, afterLogin } = useSession();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'authenticated') return <Navigate to={afterLogin ?? '/'} replace />;
  return <Outlet />;
};

export const CompanyStatusGate = () => {
  const session = useCurrentSession();
  const { pathname } = useLocation();
  const isExempt = statusExemptPaths.some(
    (path) => pathname === path || pathname.startsWith(`${path}/`),
  );
  if (!isCompanyActive(session) && !isExempt) return <Navigate to="/restricted-access" replace />;
  return <Outlet />;
};

const useDeniedRedirect = (isDenied: boolean, notify: () => void) => {
  const navigate = useNavigate();
  const onDenied = useEffectEvent(notify);
  useEffect(() => {
    if (!isDenied) return;
    onDenied();
    const timer = setTimeout(() => navigate('/', { replace: true }), PERMISSION_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [isDenied, navigate]);
};

export const PlanFeatureRoute = ({
  feature,
  children,
}: {
  feature: PlanFeature;
  children: ReactNode;
}) => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const isDenied = !user.company?.plan?.[feature];
  const message = t('guards.planNoPermission');
  useDeniedRedirect(isDenied, () => {
    toast.error(message, { toastId: 'plan-no-permission' });
  });
  return isDenied ? null : children;
};

export const SuperUserRoute = ({ children }: { children: ReactNode }) => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const isDenied = !user.super;
  const message = t('guards.superOnly');
  useDeniedRedirect(isDenied, () => {
    toast.info(message, { toastId: 'super-only' });
  });
  return isDenied ? null : children;
};
