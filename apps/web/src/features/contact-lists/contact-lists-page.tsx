import { useState } from 'react';
import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import PeopleOutlineIcon from '@mui/icons-material/PeopleOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ContactListView } from '@atendi/shared';
import { useDeleteConfirm } from '../../components/delete-confirm';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { usePagedList } from '../../lib/use-paged-list';
import { ContactListDialog } from './contact-list-dialog';
import {
  applyContactListEventToCache,
  contactListsList,
  deleteContactList,
  useContactListLiveUpdates,
} from './contact-lists.api';
import { downloadSampleSheet } from '../../lib/sample-sheet';

type DialogState = { open: boolean; contactList: ContactListView | null; sessionKey: number };

// SPEC §2 Contact lists: search; table of name, contacts count and actions (sample spreadsheet,
// the list's contacts, edit, delete). The campaigns area is the admins' (campaigns:manage).
export const ContactListsPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const list = usePagedList(contactListsList);
  const [dialog, setDialog] = useState<DialogState>({
    open: false,
    contactList: null,
    sessionKey: 0,
  });

  useContactListLiveUpdates();

  const openDialog = (contactList: ContactListView | null) =>
    setDialog((current) => ({ open: true, contactList, sessionKey: current.sessionKey + 1 }));

  const confirmDelete = useDeleteConfirm({
    remove: (contactList: ContactListView) => deleteContactList(contactList.id),
    onDeleted: (contactList) =>
      applyContactListEventToCache(queryClient, { action: 'delete', id: contactList.id }),
    deletedText: t('contactLists.deleted'),
    title: (contactList) => t('contactLists.deleteTitle', { name: contactList.name }),
    message: (contactList) => t('contactLists.deleteText', { count: contactList.contactsCount }),
    confirmLabel: t('contactLists.delete'),
  });

  const columns: TableColumns<ContactListView> = [
    { header: t('contactLists.columns.name'), cell: (contactList) => contactList.name },
    {
      header: t('contactLists.columns.contacts'),
      cell: (contactList) => contactList.contactsCount,
      align: 'center',
      width: 140,
    },
    actionsColumn(
      t('contactLists.columns.actions'),
      (contactList) => (
        <>
          <RowAction
            title={t('contactLists.downloadSample')}
            label={t('contactLists.downloadSample')}
            icon={<FileDownloadOutlinedIcon fontSize="small" />}
            onClick={() => void downloadSampleSheet()}
          />
          <RowAction
            title={t('contactLists.openContacts')}
            label={t('contactLists.openContactsOf', { name: contactList.name })}
            icon={<PeopleOutlineIcon fontSize="small" />}
            onClick={() => navigate(`/contact-lists/${contactList.id}/contacts`)}
          />
          <RowAction
            title={t('contactLists.edit')}
            label={t('contactLists.editList', { name: contactList.name })}
            icon={<EditOutlinedIcon fontSize="small" />}
            onClick={() => openDialog(contactList)}
          />
          <RowAction
            title={t('contactLists.delete')}
            label={t('contactLists.deleteList', { name: contactList.name })}
            icon={<DeleteOutlineIcon fontSize="small" />}
            onClick={() => confirmDelete.ask(contactList)}
          />
        </>
      ),
      170,
    ),
  ];

  return (
    <>
      <PagedTable
        title={t('contactLists.title')}
        searchLabel={t('contactLists.search')}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
            {t('contactLists.add')}
          </Button>
        }
        list={list}
        columns={columns}
        emptyText={t('contactLists.empty')}
        noMatchesText={t('contactLists.noMatches')}
        scrollTestId="contact-lists-scroll"
      />
      <ContactListDialog
        open={dialog.open}
        contactList={dialog.contactList}
        sessionKey={dialog.sessionKey}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
      />
      {confirmDelete.dialog}
    </>
  );
};
