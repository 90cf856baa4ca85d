import { useState, type ReactNode } from 'react';
import {
  Autocomplete,
  Avatar,
  Box,
  Button,
  Chip,
  CircularProgress,
  Divider,
  IconButton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '@atendi/shared';
import { ContactDialog } from '../../components/contact-dialog';
import { settingValue, useCompanySettings } from '../../app/layout/use-shell-data';
import { cssColor } from '../../lib/colors';
import { useFormatPhone } from '../../lib/phone';
import { ContactDrawerNotes } from './contact-drawer-notes';
import { InsightPanel, useTicketInsight } from './insight-panel';
import { useContact } from '../../api/queries/contacts';
import { useTagOptions } from '../../api/queries/tags';
import { useSyncTicketTags, useUpdateContact } from './contact-drawer.api';
import { initialOf } from './ticket-format';

// What the contact drawer shows: fetched when the drawer first opens (contact-drawer.tsx), with the
// forms (notes, contact) and the tag picker, which nothing else in the inbox needs.
type TicketTag = TicketView['tags'][number];

const TagChip = ({ tag, ...props }: { tag: TicketTag } & Record<string, unknown>) => {
  const color = cssColor(tag.color);
  return (
    <Chip
      {...props}
      size="small"
      label={tag.name}
      sx={{ bgcolor: color, color: (theme) => theme.palette.getContrastText(color) }}
    />
  );
};

// SPEC §7 Tags on tickets: choosing tags replaces the ticket's tags with the chosen ones.
const TicketTags = ({ ticket }: { ticket: TicketView }) => {
  const { t } = useTranslation();
  const options = useTagOptions();
  const sync = useSyncTicketTags(ticket.id);
  // While a change is on its way the field shows it; the saved ticket follows.
  const value = sync.isPending && sync.variables ? sync.variables : ticket.tags;
  return (
    <Autocomplete<TicketTag, true>
      multiple
      size="small"
      options={options.data ?? []}
      loading={options.isPending}
      value={value}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      getOptionLabel={(option) => option.name}
      filterSelectedOptions
      onChange={(_event, tags) =>
        sync.mutate(tags.map(({ id, name, color }) => ({ id, name, color })))
      }
      noOptionsText={t('tickets.contactDrawer.noTags')}
      loadingText={t('app.loading')}
      renderValue={(tags, getItemProps) =>
        tags.map((tag, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <TagChip key={key} tag={tag} {...itemProps} />;
        })
      }
      renderInput={(params) => <TextField {...params} label={t('tickets.contactDrawer.tags')} />}
    />
  );
};

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <Stack spacing={1} component="section" aria-label={title}>
    <Typography variant="subtitle2" component="h3">
      {title}
    </Typography>
    {children}
  </Stack>
);

// Live insight's newest analysis of the conversation, once there is one.
const InsightSection = ({ ticketId }: { ticketId: number }) => {
  const { t } = useTranslation();
  const insight = useTicketInsight(ticketId).data?.insight;
  if (!insight) return null;
  return (
    <>
      <Divider />
      <Section title={t('tickets.insight.title')}>
        <InsightPanel insight={insight} />
      </Section>
    </>
  );
};

export const ContactDrawerContent = ({
  ticket,
  onClose,
}: {
  ticket: TicketView;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const contact = useContact(ticket.contactId);
  const updateContact = useUpdateContact(ticket.contactId);
  const [isEditing, setIsEditing] = useState(false);
  const formatPhone = useFormatPhone();
  const country = settingValue(useCompanySettings(), 'country');
  // The ticket carries the contact already: show it while the details (extra info) load.
  const shown = contact.data ?? ticket.contact;
  return (
    <Stack sx={{ height: '100%', minHeight: 0 }}>
      <Stack
        direction="row"
        sx={{
          alignItems: 'center',
          px: 2,
          py: 1,
          borderBottom: 1,
          borderColor: 'divider',
          flexShrink: 0,
        }}
      >
        <Typography component="h2" variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
          {t('tickets.contactDrawer.title')}
        </Typography>
        <IconButton aria-label={t('tickets.contactDrawer.close')} onClick={onClose} edge="end">
          <CloseIcon />
        </IconButton>
      </Stack>
      <Stack spacing={2} sx={{ p: 2, overflowY: 'auto', flex: 1, minHeight: 0 }}>
        <Stack
          spacing={0.5}
          sx={{
            alignItems: 'center',
            textAlign: 'center',
          }}
        >
          <Avatar
            src={shown.urlPicture || shown.profilePicUrl || undefined}
            alt=""
            sx={{ width: 96, height: 96, fontSize: 40, mb: 1 }}
          >
            {initialOf(shown.name)}
          </Avatar>
          <Typography data-testid="contact-drawer-name" sx={{ fontWeight: 600 }}>
            {shown.name}
          </Typography>
          <Typography variant="body2" data-testid="contact-drawer-number">
            {formatPhone(shown.number, shown.isGroup)}
          </Typography>
          {shown.email && (
            <Typography
              variant="body2"
              data-testid="contact-drawer-email"
              sx={{
                color: 'text.secondary',
              }}
            >
              {shown.email}
            </Typography>
          )}
          <Box sx={{ pt: 1 }}>
            <Button
              size="small"
              variant="outlined"
              startIcon={<EditOutlinedIcon />}
              disabled={!contact.data}
              onClick={() => setIsEditing(true)}
            >
              {t('tickets.contactDrawer.edit')}
            </Button>
          </Box>
        </Stack>
        <Divider />
        <Section title={t('tickets.contactDrawer.tags')}>
          <TicketTags ticket={ticket} />
        </Section>
        <InsightSection ticketId={ticket.id} />
        <Divider />
        <Section title={t('contactForm.extraInfo')}>
          {contact.isPending ? (
            <CircularProgress size={20} aria-label={t('app.loading')} />
          ) : contact.data?.extraInfo.length ? (
            <Stack component="dl" spacing={1} sx={{ m: 0 }}>
              {contact.data.extraInfo.map((info) => (
                <Box key={info.id}>
                  <Typography
                    component="dt"
                    variant="caption"
                    sx={{
                      color: 'text.secondary',
                    }}
                  >
                    {info.name}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
                    {info.value}
                  </Typography>
                </Box>
              ))}
            </Stack>
          ) : (
            <Typography
              variant="body2"
              sx={{
                color: 'text.secondary',
              }}
            >
              {t('tickets.contactDrawer.noExtraInfo')}
            </Typography>
          )}
        </Section>
        <Divider />
        <Section title={t('tickets.contactDrawer.notes.title')}>
          <ContactDrawerNotes key={ticket.id} ticket={ticket} />
        </Section>
      </Stack>
      {contact.data && (
        <ContactDialog
          contact={contact.data}
          open={isEditing}
          country={country}
          onSave={updateContact.mutateAsync}
          onClose={() => setIsEditing(false)}
        />
      )}
    </Stack>
  );
};
