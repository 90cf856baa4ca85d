import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import { useTranslation } from 'react-i18next';
import type { ContactUploadResult } from '@atendi/shared';
import { ImportDialog, type ImportResult } from '../../components/import-dialog';
import { importPhoneContacts, uploadContacts } from './contacts.api';

const resultOf = (answer: ContactUploadResult): ImportResult => ({
  imported: answer.newContacts.length,
  refused: answer.errorBag,
});

// SPEC §2 Modals: contact import. The sheet is read in the browser and its rows sent in chunks (the
// bar follows them); or the default connection's phone shares its address book.
export const ContactImportDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  return (
    <ImportDialog
      open={open}
      onClose={onClose}
      title={t('contacts.import.title')}
      confirm={t('contacts.import.confirm')}
      numberRule="contacts.import.numberRule"
      importSheet={async ({ rows }, onProgress) => resultOf(await uploadContacts(rows, onProgress))}
      otherSource={{
        label: t('contacts.import.fromPhone'),
        help: t('contacts.import.phoneHelp'),
        icon: <PhoneAndroidIcon />,
        confirm: t('contacts.import.phoneConfirm'),
        // POST /contacts/import: what the default connection's phone shared of its address book.
        run: async () => resultOf(await importPhoneContacts()),
      }}
    />
  );
};
