import type { Ref } from 'react';
import { format, isValid, parse } from 'date-fns';
import { enUS, es, ptBR } from 'date-fns/locale';
import { useTranslation } from 'react-i18next';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import {
  enUS as enPickerTexts,
  esES as esPickerTexts,
  ptBR as ptPickerTexts,
} from '@mui/x-date-pickers/locales';

// The one date field of the app (dashboard filter, due dates, scheduled messages, campaigns): the
// browser's native inputs follow the browser's language (a Spanish app showed "mm/dd/yyyy" and
// "05:40 AM"); this one follows the app's, in SPEC §9's dd/MM/yyyy and a 24-hour clock, with a
// calendar in the app's language. Its value is the text a native input would hold ("2026-12-25",
// "2026-12-25T10:30"), so forms and their rules read it as before; "" when empty and INVALID_DATE
// while what is typed is not yet a date.

export const INVALID_DATE = 'invalid';

const VALUE_FORMAT = { date: 'yyyy-MM-dd', datetime: "yyyy-MM-dd'T'HH:mm" } as const;
const SHOWN_FORMAT = { date: 'dd/MM/yyyy', datetime: 'dd/MM/yyyy HH:mm' } as const;

const localeOf = (language: string) => {
  if (language.startsWith('en')) return { dates: enUS, texts: enPickerTexts };
  if (language.startsWith('pt')) return { dates: ptBR, texts: ptPickerTexts };
  return { dates: es, texts: esPickerTexts };
};

type Kind = keyof typeof VALUE_FORMAT;

const toDate = (value: string, kind: Kind): Date | null => {
  if (!value) return null;
  if (value === INVALID_DATE) return new Date(Number.NaN);
  const date = parse(value, VALUE_FORMAT[kind], new Date());
  return isValid(date) ? date : new Date(Number.NaN);
};

const toValue = (date: Date | null, kind: Kind) => {
  if (!date) return '';
  return isValid(date) ? format(date, VALUE_FORMAT[kind]) : INVALID_DATE;
};

export const DateField = ({
  kind,
  label,
  value,
  onChange,
  onBlur,
  inputRef,
  name,
  min,
  max,
  disabled = false,
  required = false,
  fullWidth = false,
  size = 'medium',
  error = false,
  helperText,
}: {
  kind: Kind;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  name?: string;
  // The first and last allowed, in the value's format.
  min?: string;
  max?: string;
  disabled?: boolean;
  required?: boolean;
  fullWidth?: boolean;
  size?: 'small' | 'medium';
  error?: boolean;
  helperText?: string;
}) => {
  const { i18n } = useTranslation();
  const locale = localeOf(i18n.language);
  const common = {
    label,
    value: toDate(value, kind),
    onChange: (date: Date | null) => onChange(toValue(date, kind)),
    format: SHOWN_FORMAT[kind],
    disabled,
    // An <input> holding the whole text (not one element per part): it reads and pastes as one.
    enableAccessibleFieldDOMStructure: false as const,
    slotProps: {
      textField: {
        name,
        onBlur,
        inputRef,
        required,
        fullWidth,
        size,
        error,
        helperText,
      },
    },
  };
  const minDate = min ? (toDate(min, kind) ?? undefined) : undefined;
  const maxDate = max ? (toDate(max, kind) ?? undefined) : undefined;
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={locale.dates}
      localeText={locale.texts.components.MuiLocalizationProvider.defaultProps.localeText}
    >
      {kind === 'date' ? (
        <DatePicker {...common} minDate={minDate} maxDate={maxDate} />
      ) : (
        <DateTimePicker {...common} ampm={false} minDateTime={minDate} maxDateTime={maxDate} />
      )}
    </LocalizationProvider>
  );
};
