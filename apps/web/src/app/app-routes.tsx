import { Route, Routes, useLocation } from 'react-router';
import { NotFoundPage } from '../components/not-found-page';
import { AnnouncementsPage } from '../features/announcements/announcements-page';
import { ForgetPasswordPage } from '../features/auth/forget-password-page';
import { LoginPage } from '../features/auth/login-page';
import { SignupPage } from '../features/auth/signup-page';
import { CampaignReportPage } from '../features/campaigns/campaign-report-page';
import { CampaignsConfigPage } from '../features/campaigns/campaigns-config-page';
import { CampaignsPage } from '../features/campaigns/campaigns-page';
import { ConnectionsPage } from '../features/connections/connections-page';
import { ContactListItemsPage } from '../features/contact-lists/contact-list-items-page';
import { ContactListsPage } from '../features/contact-lists/contact-lists-page';
import { ContactsPage } from '../features/contacts/contacts-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { FilesPage } from '../features/files/files-page';
import { HelpsPage } from '../features/helps/helps-page';
import { KanbanPage } from '../features/kanban/kanban-page';
import { MessagesApiPage } from '../features/messages-api/messages-api-page';
import { PromptsPage } from '../features/prompts/prompts-page';
import { QueueIntegrationsPage } from '../features/queue-integrations/queue-integrations-page';
import { QueuesPage } from '../features/queues/queues-page';
import { QuickMessagesPage } from '../features/quick-messages/quick-messages-page';
import { SchedulesPage } from '../features/schedules/schedules-page';
import { SettingsPage } from '../features/settings/settings-page';
import {
  PaymentCancelPage,
  PaymentSuccessPage,
} from '../features/subscriptions/payment-result-pages';
import { RestrictedAccessPage } from '../features/subscriptions/restricted-access-page';
import { SubscribePage } from '../features/subscriptions/subscribe-page';
import { SubscriptionsPage } from '../features/subscriptions/subscriptions-page';
import { TagsPage } from '../features/tags/tags-page';
import { TicketsPage } from '../features/tickets/tickets-page';
import { TodoListPage } from '../features/todolist/todolist-page';
import { UsersPage } from '../features/users/users-page';
import { hasCampaignFlag } from '../lib/storage';
import {
  CompanyStatusGate,
  PlanFeatureRoute,
  PublicOnly,
  RequireAuth,
  SuperUserRoute,
} from './guards';
import { AppLayout } from './layout/app-layout';

// SPEC §2 route table.
export const AppRoutes = () => {
  // Read on every navigation: the cshow flag can appear after login.
  useLocation();
  const withCampaigns = hasCampaignFlag();

  return (
    <Routes>
      <Route element={<PublicOnly />}>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/signup" element={<SignupPage />} />
        <Route path="/forgetpsw" element={<ForgetPasswordPage />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<AppLayout />}>
          <Route element={<CompanyStatusGate />}>
            <Route index element={<DashboardPage />} />
            <Route path="/tickets/:ticketId?" element={<TicketsPage />} />
            <Route path="/connections" element={<ConnectionsPage />} />
            <Route path="/quick-messages" element={<QuickMessagesPage />} />
            <Route path="/todolist" element={<TodoListPage />} />
            <Route
              path="/schedules"
              element={
                <PlanFeatureRoute feature="useSchedules">
                  <SchedulesPage />
                </PlanFeatureRoute>
              }
            />
            <Route path="/tags" element={<TagsPage />} />
            <Route path="/contacts" element={<ContactsPage />} />
            <Route path="/helps" element={<HelpsPage />} />
            <Route path="/users" element={<UsersPage />} />
            <Route path="/files" element={<FilesPage />} />
            <Route
              path="/prompts"
              element={
                <PlanFeatureRoute feature="useOpenAi">
                  <PromptsPage />
                </PlanFeatureRoute>
              }
            />
            <Route
              path="/queue-integration"
              element={
                <PlanFeatureRoute feature="useIntegrations">
                  <QueueIntegrationsPage />
                </PlanFeatureRoute>
              }
            />
            <Route
              path="/messages-api"
              element={
                <PlanFeatureRoute feature="useExternalApi">
                  <MessagesApiPage />
                </PlanFeatureRoute>
              }
            />
            <Route path="/settings" element={<SettingsPage />} />
            <Route
              path="/kanban"
              element={
                <PlanFeatureRoute feature="useKanban">
                  <KanbanPage />
                </PlanFeatureRoute>
              }
            />
            <Route path="/queues" element={<QueuesPage />} />
            <Route
              path="/announcements"
              element={
                <SuperUserRoute>
                  <AnnouncementsPage />
                </SuperUserRoute>
              }
            />
            <Route path="/subscriptions" element={<SubscriptionsPage />} />
            <Route path="/subscribe" element={<SubscribePage />} />
            <Route path="/restricted-access" element={<RestrictedAccessPage />} />
            <Route path="/success" element={<PaymentSuccessPage />} />
            <Route path="/cancel" element={<PaymentCancelPage />} />
            {withCampaigns && (
              <>
                <Route
                  path="/contact-lists"
                  element={
                    <PlanFeatureRoute feature="useCampaigns">
                      <ContactListsPage />
                    </PlanFeatureRoute>
                  }
                />
                <Route
                  path="/contact-lists/:contactListId/contacts"
                  element={
                    <PlanFeatureRoute feature="useCampaigns">
                      <ContactListItemsPage />
                    </PlanFeatureRoute>
                  }
                />
                <Route
                  path="/campaigns"
                  element={
                    <PlanFeatureRoute feature="useCampaigns">
                      <CampaignsPage />
                    </PlanFeatureRoute>
                  }
                />
                <Route
                  path="/campaign/:campaignId/report"
                  element={
                    <PlanFeatureRoute feature="useCampaigns">
                      <CampaignReportPage />
                    </PlanFeatureRoute>
                  }
                />
                <Route
                  path="/campaigns-config"
                  element={
                    <PlanFeatureRoute feature="useCampaigns">
                      <CampaignsConfigPage />
                    </PlanFeatureRoute>
                  }
                />
              </>
            )}
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Route>
      </Route>
    </Routes>
  );
};
