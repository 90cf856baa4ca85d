import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar, Button, CircularProgress, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import FileUploadOutlinedIcon from '@mui/icons-material/FileUploadOutlined';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { can, type ContactDetailView, type ContactView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { toastError } from '../../api/toasts';
import { ContactDialog } from '../../components/contact-dialog';
import { useDeleteConfirm } from '../../components/delete-confirm';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { settingValue, useCompanySettings } from '../../app/layout/use-shell-data';
import { useFormatPhone } from '../../lib/phone';
import { usePagedList } from '../../lib/use-paged-list';
import { ContactImportDialog } from './contact-import-dialog';
import { applyContactEventToCache, contactsList, fetchContact } from '../../api/queries/contacts';
import {
  createContact,
  deleteContact,
  exportContacts,
  openTicketFor,
  updateContact,
  useContactLiveUpdates,
} from './contacts.api';

// The dialog edits the contact as stored (with its extra info), fetched when the pencil is clicked.
type Editing = { open: boolean; contact?: ContactDetailView; sessionKey: number };

// SPEC §2 Contacts: search, import, add and export; table of avatar, name, WhatsApp number, email and
// actions (open a conversation, edit, delete with contacts-page:deleteContact).
export const ContactsPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const canDelete = can(me, 'contacts-page:deleteContact');
  const list = usePagedList(contactsList);
  const count = list.firstPage?.count ?? 0;
  const [editing, setEditing] = useState<Editing>({ open: false, sessionKey: 0 });
  const [isImporting, setIsImporting] = useState(false);
  const formatPhone = useFormatPhone();
  const country = settingValue(useCompanySettings(), 'country');

  useContactLiveUpdates();

  const openDialog = (contact?: ContactDetailView) =>
    setEditing((current) => ({ open: true, contact, sessionKey: current.sessionKey + 1 }));

  const edit = useMutation({
    mutationFn: fetchContact,
    onSuccess: (contact) => openDialog(contact),
    onError: toastError,
  });

  const save = async (input: Parameters<typeof createContact>[0]) => {
    const saved = editing.contact
      ? await updateContact(editing.contact.id, input)
      : await createContact(input);
    applyContactEventToCache(queryClient, {
      action: editing.contact ? 'update' : 'create',
      contact: saved,
    });
  };

  const confirmDelete = useDeleteConfirm({
    remove: (contact: ContactView) => deleteContact(contact.id),
    onDeleted: (contact) =>
      applyContactEventToCache(queryClient, { action: 'delete', contactId: contact.id }),
    deletedText: t('contacts.deleted'),
    title: (contact) => t('contacts.deleteTitle', { name: contact.name }),
    message: () => t('contacts.deleteText'),
    confirmLabel: t('contacts.delete'),
  });

  // SPEC §5 New ticket: an attendant opens it in one of their queues; an admin may leave it out.
  const openTicket = useMutation({
    mutationFn: (contact: ContactView) =>
      openTicketFor(
        {
          contactId: contact.id,
          queueId: me.profile === 'admin' ? null : (me.queues[0]?.id ?? null),
          userId: me.id,
          status: 'open',
        },
        me.name,
      ),
    onSuccess: (uuid) => navigate(`/tickets/${uuid}`),
    onError: toastError,
  });

  const exporting = useMutation({ mutationFn: exportContacts, onError: toastError });

  const columns: TableColumns<ContactView> = [
    {
      header: null,
      width: 56,
      cell: (contact) => (
        <Avatar src={contact.urlPicture || contact.profilePicUrl || undefined}>
          {contact.name.charAt(0).toUpperCase()}
        </Avatar>
      ),
    },
    { header: t('contacts.columns.name'), cell: (contact) => contact.name },
    {
      header: t('contacts.columns.number'),
      cell: (contact) => formatPhone(contact.number, contact.isGroup),
    },
    {
      header: t('contacts.columns.email'),
      cell: (contact) => contact.email,
      sx: { wordBreak: 'break-all' },
    },
    actionsColumn(
      t('contacts.columns.actions'),
      (contact) => (
        <>
          <RowAction
            title={t('contacts.openTicket')}
            label={t('contacts.openTicketFor', { name: contact.name })}
            icon={<WhatsAppIcon fontSize="small" />}
            disabled={openTicket.isPending}
            onClick={() => openTicket.mutate(contact)}
          />
          <RowAction
            title={t('contacts.edit')}
            label={t('contacts.editContact', { name: contact.name })}
            icon={<EditOutlinedIcon fontSize="small" />}
            disabled={edit.isPending}
            onClick={() => edit.mutate(contact.id)}
          />
          {canDelete && (
            <RowAction
              title={t('contacts.delete')}
              label={t('contacts.deleteContact', { name: contact.name })}
              icon={<DeleteOutlineIcon fontSize="small" />}
              onClick={() => confirmDelete.ask(contact)}
            />
          )}
        </>
      ),
      150,
    ),
  ];

  return (
    <>
      <PagedTable
        title={t('contacts.title', { count })}
        tableLabel={t('contacts.tableLabel')}
        searchLabel={t('contacts.search')}
        stackBelow="md"
        toolbar={
          <Stack direction="row" spacing={1}>
            <Button
              variant="outlined"
              startIcon={<FileUploadOutlinedIcon />}
              onClick={() => setIsImporting(true)}
            >
              {t('contacts.importButton')}
            </Button>
            <Button
              variant="outlined"
              startIcon={
                exporting.isPending ? (
                  <CircularProgress size={16} color="inherit" />
                ) : (
                  <FileDownloadOutlinedIcon />
                )
              }
              disabled={exporting.isPending}
              onClick={() => exporting.mutate()}
            >
              {t('contacts.export')}
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog()}>
              {t('contacts.add')}
            </Button>
          </Stack>
        }
        list={list}
        columns={columns}
        emptyText={t('contacts.empty')}
        noMatchesText={t('contacts.noMatches')}
        scrollTestId="contacts-scroll"
      />
      <ContactDialog
        key={editing.sessionKey}
        open={editing.open}
        contact={editing.contact}
        country={country}
        onSave={save}
        onClose={() => setEditing((current) => ({ ...current, open: false }))}
      />
      <ContactImportDialog open={isImporting} onClose={() => setIsImporting(false)} />
      {confirmDelete.dialog}
    </>
  );
};
