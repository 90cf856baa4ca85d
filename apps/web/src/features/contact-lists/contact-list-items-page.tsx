import { useMemo, useState } from 'react';
import { Box, Button, Stack, Tooltip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlined';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ContactListItemView, ContactListView } from '@atendi/shared';
import { ApiError } from '../../api/http-client';
import { errorText } from '../../api/toasts';
import { useDeleteConfirm } from '../../components/delete-confirm';
import { LoadingBox } from '../../components/loading-box';
import { MessagePage } from '../../components/message-page';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { usePagedList } from '../../lib/use-paged-list';
import { useFormatPhone } from '../../lib/phone';
import { ContactListImportDialog } from './contact-list-import-dialog';
import { ContactListItemDialog } from './contact-list-item-dialog';
import {
  applyContactListItemEventToCache,
  contactListItemsList,
  contactListQuery,
  deleteContactListItem,
  useContactListItemLiveUpdates,
  useContactListLiveUpdates,
} from './contact-lists.api';

type DialogState = { open: boolean; item: ContactListItemView | null; sessionKey: number };

const validityIcons = {
  valid: { Icon: CheckCircleIcon, color: 'success', labelKey: 'contactListItems.whatsappValid' },
  invalid: { Icon: CancelIcon, color: 'error', labelKey: 'contactListItems.whatsappInvalid' },
  unknown: { Icon: HelpOutlineIcon, color: 'disabled', labelKey: 'contactListItems.unchecked' },
} as const;

// Whether WhatsApp has the number: true or false once a connection could look it up, null before.
const WhatsappValidity = ({ isValid }: { isValid: boolean | null }) => {
  const { t } = useTranslation();
  const { Icon, color, labelKey } =
    validityIcons[isValid === null ? 'unknown' : isValid ? 'valid' : 'invalid'];
  const label = t(labelKey);
  return (
    <Tooltip title={label}>
      <Box component="span" role="img" aria-label={label} sx={{ display: 'inline-flex' }}>
        <Icon fontSize="small" color={color} />
      </Box>
    </Tooltip>
  );
};

const BackToLists = () => {
  const { t } = useTranslation();
  return (
    <Button
      variant="outlined"
      startIcon={<ArrowBackIcon />}
      component={RouterLink}
      to="/contact-lists"
    >
      {t('contactListItems.back')}
    </Button>
  );
};

const ContactListItems = ({ contactList }: { contactList: ContactListView }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const source = useMemo(() => contactListItemsList(contactList.id), [contactList.id]);
  const list = usePagedList(source);
  const [dialog, setDialog] = useState<DialogState>({ open: false, item: null, sessionKey: 0 });
  const [importing, setImporting] = useState({ open: false, sessionKey: 0 });
  const formatPhone = useFormatPhone();

  useContactListItemLiveUpdates();

  const openDialog = (item: ContactListItemView | null) =>
    setDialog((current) => ({ open: true, item, sessionKey: current.sessionKey + 1 }));

  const confirmDelete = useDeleteConfirm({
    remove: (item: ContactListItemView) => deleteContactListItem(item.id),
    onDeleted: (item) =>
      applyContactListItemEventToCache(queryClient, {
        action: 'delete',
        id: item.id,
        contactListId: item.contactListId,
      }),
    deletedText: t('contactListItems.deleted'),
    title: (item) => t('contactListItems.deleteTitle', { name: item.name }),
    message: () => t('contactListItems.deleteText'),
    confirmLabel: t('contactListItems.delete'),
  });

  const columns: TableColumns<ContactListItemView> = [
    {
      header: t('contactListItems.columns.whatsapp'),
      cell: (item) => <WhatsappValidity isValid={item.isWhatsappValid} />,
      align: 'center',
      width: 100,
    },
    { header: t('contactListItems.columns.name'), cell: (item) => item.name },
    { header: t('contactListItems.columns.number'), cell: (item) => formatPhone(item.number) },
    { header: t('contactListItems.columns.email'), cell: (item) => item.email },
    actionsColumn(t('contactListItems.columns.actions'), (item) => (
      <>
        <RowAction
          title={t('contactListItems.edit')}
          label={t('contactListItems.editItem', { name: item.name })}
          icon={<EditOutlinedIcon fontSize="small" />}
          onClick={() => openDialog(item)}
        />
        <RowAction
          title={t('contactListItems.delete')}
          label={t('contactListItems.deleteItem', { name: item.name })}
          icon={<DeleteOutlineIcon fontSize="small" />}
          onClick={() => confirmDelete.ask(item)}
        />
      </>
    )),
  ];

  return (
    <>
      <PagedTable
        title={contactList.name}
        tableLabel={t('contactListItems.tableLabel')}
        searchLabel={t('contactListItems.search')}
        toolbar={
          <Stack direction="row" spacing={1}>
            <BackToLists />
            <Button
              variant="outlined"
              startIcon={<UploadFileIcon />}
              onClick={() =>
                setImporting((current) => ({ open: true, sessionKey: current.sessionKey + 1 }))
              }
            >
              {t('contactListItems.importButton')}
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
              {t('contactListItems.add')}
            </Button>
          </Stack>
        }
        stackBelow="md"
        list={list}
        columns={columns}
        emptyText={t('contactListItems.empty')}
        noMatchesText={t('contactListItems.noMatches')}
        scrollTestId="contact-list-items-scroll"
      />
      <ContactListItemDialog
        open={dialog.open}
        contactListId={contactList.id}
        item={dialog.item}
        sessionKey={dialog.sessionKey}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
      />
      <ContactListImportDialog
        open={importing.open}
        contactList={contactList}
        sessionKey={importing.sessionKey}
        onClose={() => setImporting((current) => ({ ...current, open: false }))}
      />
      {confirmDelete.dialog}
    </>
  );
};

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

// SPEC §2 Contact list items (/contact-lists/:contactListId/contacts): the list's name over its
// contacts. A list that does not exist, or was just deleted, says so and leads back to the lists.
export const ContactListItemsPage = () => {
  const { t } = useTranslation();
  const { contactListId: param = '' } = useParams();
  const contactListId = /^\d{1,9}$/.test(param) ? Number(param) : 0;
  const query = useQuery({ ...contactListQuery(contactListId), enabled: contactListId > 0 });

  // Renames show in the heading; a delete makes the list ask again and find nothing.
  useContactListLiveUpdates();

  if (contactListId === 0 || isNotFound(query.error))
    return (
      <MessagePage
        title={t('contactListItems.notFoundTitle')}
        text={t('errors.ERR_NO_CONTACT_LIST_FOUND')}
        action={<BackToLists />}
      />
    );
  if (!query.data && query.error)
    return (
      <MessagePage
        title={t('contactListItems.loadFailed')}
        text={errorText(query.error)}
        action={<BackToLists />}
      />
    );
  if (!query.data) return <LoadingBox />;
  return <ContactListItems key={query.data.id} contactList={query.data} />;
};
