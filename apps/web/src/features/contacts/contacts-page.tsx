import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  Avatar,
  Box,
  Button,
  CircularProgress,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import FileUploadOutlinedIcon from '@mui/icons-material/FileUploadOutlined';
import SearchIcon from '@mui/icons-material/Search';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { can, type ContactDetailView, type ContactView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { toastError } from '../../api/toasts';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ContactDialog } from '../../components/contact-dialog';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useInfiniteScroll } from '../../lib/use-infinite-scroll';
import { ContactImportDialog } from './contact-import-dialog';
import {
  applyContactEventToCache,
  createContact,
  deleteContact,
  exportContacts,
  fetchContact,
  openTicketFor,
  updateContact,
  useContactLiveUpdates,
  useContactsList,
} from './contacts.api';

// The dialog edits the contact as stored (with its extra info), fetched when the pencil is clicked.
type Editing = { open: boolean; contact?: ContactDetailView; sessionKey: number };

const COLUMNS = 5;

// SPEC §2 Contacts: search, import, add and export; table of avatar, name, WhatsApp number, email and
// actions (open a conversation, edit, delete with contacts-page:deleteContact).
export const ContactsPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user: me } = useCurrentSession();
  const canDelete = can(me, 'contacts-page:deleteContact');
  const [searchInput, setSearchInput] = useState('');
  const search = useDebouncedValue(searchInput.trim());
  const list = useContactsList(search);
  const { contacts } = list;
  const count = list.data?.pages[0]?.count ?? 0;
  const [editing, setEditing] = useState<Editing>({ open: false, sessionKey: 0 });
  const [isImporting, setIsImporting] = useState(false);
  const [toDelete, setToDelete] = useState<ContactView | null>(null);
  const scroll = useInfiniteScroll({ ...list, loadedCount: contacts.length });

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

  const remove = useMutation({
    mutationFn: (contact: ContactView) => deleteContact(contact.id),
    onSuccess: (_data, contact) => {
      applyContactEventToCache(queryClient, { action: 'delete', contactId: contact.id });
      toast.success(t('contacts.deleted'));
    },
    onError: toastError,
    onSettled: () => setToDelete(null),
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

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        alignItems={{ xs: 'stretch', md: 'center' }}
      >
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('contacts.title', { count })}
        </Typography>
        <TextField
          size="small"
          type="search"
          placeholder={t('contacts.search')}
          value={searchInput}
          onChange={(event) => setSearchInput(event.target.value)}
          slotProps={{
            htmlInput: { 'aria-label': t('contacts.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
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
      </Stack>

      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <TableContainer
          ref={scroll.ref}
          onScroll={scroll.onScroll}
          data-testid="contacts-scroll"
          sx={{ maxHeight: { xs: 'calc(100vh - 280px)', md: 'calc(100vh - 190px)' } }}
        >
          <Table stickyHeader size="small" aria-label={t('contacts.tableLabel')}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 56 }} />
                <TableCell>{t('contacts.columns.name')}</TableCell>
                <TableCell>{t('contacts.columns.number')}</TableCell>
                <TableCell>{t('contacts.columns.email')}</TableCell>
                <TableCell align="center" sx={{ width: 150 }}>
                  {t('contacts.columns.actions')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {contacts.map((contact) => (
                <TableRow key={contact.id} hover>
                  <TableCell>
                    <Avatar src={contact.urlPicture || contact.profilePicUrl || undefined}>
                      {contact.name.charAt(0).toUpperCase()}
                    </Avatar>
                  </TableCell>
                  <TableCell>{contact.name}</TableCell>
                  <TableCell>{contact.number}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{contact.email}</TableCell>
                  <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t('contacts.openTicket')}>
                      <IconButton
                        size="small"
                        aria-label={t('contacts.openTicketFor', { name: contact.name })}
                        disabled={openTicket.isPending}
                        onClick={() => openTicket.mutate(contact)}
                      >
                        <WhatsAppIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('contacts.edit')}>
                      <IconButton
                        size="small"
                        aria-label={t('contacts.editContact', { name: contact.name })}
                        disabled={edit.isPending}
                        onClick={() => edit.mutate(contact.id)}
                      >
                        <EditOutlinedIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    {canDelete && (
                      <Tooltip title={t('contacts.delete')}>
                        <IconButton
                          size="small"
                          aria-label={t('contacts.deleteContact', { name: contact.name })}
                          onClick={() => setToDelete(contact)}
                        >
                          <DeleteOutlineIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {list.isFetching && (
                <TableRow>
                  <TableCell colSpan={COLUMNS} align="center">
                    <CircularProgress size={24} aria-label={t('app.loading')} />
                  </TableCell>
                </TableRow>
              )}
              {!list.isPending && !list.isFetching && contacts.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMNS}>
                    <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
                      {search ? t('contacts.noMatches') : t('contacts.empty')}
                    </Box>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>

      <ContactDialog
        key={editing.sessionKey}
        open={editing.open}
        contact={editing.contact}
        onSave={save}
        onClose={() => setEditing((current) => ({ ...current, open: false }))}
      />
      <ContactImportDialog open={isImporting} onClose={() => setIsImporting(false)} />
      <ConfirmDialog
        open={toDelete !== null}
        title={t('contacts.deleteTitle', { name: toDelete?.name ?? '' })}
        message={t('contacts.deleteText')}
        confirmLabel={t('contacts.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
};
