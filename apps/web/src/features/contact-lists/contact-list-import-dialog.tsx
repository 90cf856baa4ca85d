import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  CONTACT_LIST_UPLOAD_MAX_BYTES,
  CONTACT_LIST_UPLOAD_MAX_ROWS,
  type ContactListView,
} from '@atendi/shared';
import { ApiError, NETWORK_ERROR } from '../../api/http-client';
import { ImportDialog } from '../../components/import-dialog';
import { uploadContactListSheet } from './contact-list-upload';
import { contactListItemsKeys, contactListsKeys } from './contact-lists.api';

type DialogProps = {
  open: boolean;
  contactList: ContactListView;
  onClose: () => void;
};

const ListImportDialog = ({ open, contactList, onClose }: DialogProps) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();

  // The table asks for the list's items again; the cached list takes the count just answered.
  const refreshItems = (contactsCount?: number) => {
    void queryClient.invalidateQueries({ queryKey: contactListItemsKeys.lists(contactList.id) });
    if (contactsCount !== undefined)
      queryClient.setQueryData<ContactListView>(contactListsKeys.detail(contactList.id), (list) =>
        list ? { ...list, contactsCount } : list,
      );
  };

  const importSheet = async (
    { file }: { file: File },
    onProgress: (share: number | null) => void,
  ) => {
    try {
      // Once the file is sent the server judges its rows: no share to show then.
      const answer = await uploadContactListSheet(contactList.id, file, (sent) =>
        onProgress(sent < 1 ? sent : null),
      );
      refreshItems(answer.contactsCount);
      const count = t('contactListItems.import.listCount', { count: answer.contactsCount });
      return {
        imported: answer.created,
        refused: answer.errors,
        note: answer.created > 0 ? `${count} ${t('contactListItems.import.checking')}` : count,
      };
    } catch (error) {
      // A connection lost after the server stored the rows: the table shows what it has.
      if (error instanceof ApiError && error.code === NETWORK_ERROR) refreshItems();
      throw error;
    }
  };

  return (
    <ImportDialog
      open={open}
      onClose={onClose}
      title={t('contactListItems.import.title')}
      confirm={t('contactListItems.import.confirm', { list: contactList.name })}
      numberRule="contactLists.validation.number"
      maxBytes={CONTACT_LIST_UPLOAD_MAX_BYTES}
      maxRows={CONTACT_LIST_UPLOAD_MAX_ROWS}
      importSheet={importSheet}
    />
  );
};

// SPEC §2 Contact list items, import: an .xlsx or a CSV into the list. The server reads the file
// again and judges each row; the new numbers are checked on WhatsApp afterwards. `sessionKey` gives
// every opening a fresh start.
export const ContactListImportDialog = ({
  sessionKey,
  ...props
}: DialogProps & { sessionKey: number }) => <ListImportDialog key={sessionKey} {...props} />;
