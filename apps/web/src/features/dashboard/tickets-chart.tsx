import { useMemo } from 'react';
import { Box, alpha, useTheme } from '@mui/material';
import {
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  Filler,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
  type ChartOptions,
} from 'chart.js';
import { Bar, Line } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import { formatCount } from './dashboard-format';

// Only the pieces these two charts draw; this module is loaded lazily, so none of it is in the
// app's first bundle.
ChartJS.register(
  CategoryScale,
  LinearScale,
  BarElement,
  LineElement,
  PointElement,
  Tooltip,
  Filler,
);

export type ChartPoint = {
  // What the axis shows, and what the values list says (a longer form, e.g. the full date).
  label: string;
  longLabel: string;
  value: number;
};

type TicketsChartProps = {
  kind: 'bar' | 'line';
  // The chart's accessible name.
  name: string;
  points: ChartPoint[];
  xTitle?: string;
  yTitle: string;
};

// Chart.js draws on a 2D context; where there is none (very old browsers, jsdom) the canvas keeps
// its fallback content, the list of values, and nothing tries to draw.
const canDraw = (() => {
  try {
    return Boolean(document.createElement('canvas').getContext('2d'));
  } catch {
    return false;
  }
})();

// Colours and fonts from the MUI theme, so the light and dark themes both read well.
const useChartOptions = (xTitle: string | undefined, yTitle: string) => {
  const theme = useTheme();
  const { i18n } = useTranslation();
  return useMemo(() => {
    const font = { family: theme.typography.fontFamily };
    const color = theme.palette.text.secondary;
    const grid = { color: theme.palette.divider };
    const axisTitle = (text: string | undefined) => ({
      display: Boolean(text),
      text: text ?? '',
      color,
      font,
    });
    return {
      responsive: true,
      maintainAspectRatio: false,
      locale: i18n.language,
      plugins: {
        legend: { display: false },
        tooltip: { titleFont: font, bodyFont: font },
      },
      scales: {
        x: { ticks: { color, font }, grid, title: axisTitle(xTitle) },
        y: {
          beginAtZero: true,
          ticks: { color, font, precision: 0 },
          grid,
          title: axisTitle(yTitle),
        },
      },
    } satisfies ChartOptions<'bar'> & ChartOptions<'line'>;
  }, [theme, i18n.language, xTitle, yTitle]);
};

// A bar or line chart of ticket totals, with its values as text for screen readers and tests.
export const TicketsChart = ({ kind, name, points, xTitle, yTitle }: TicketsChartProps) => {
  const theme = useTheme();
  const { i18n } = useTranslation();
  const options = useChartOptions(xTitle, yTitle);
  const primary = theme.palette.primary.main;
  const data = useMemo(
    () => ({
      labels: points.map((point) => point.label),
      datasets: [
        kind === 'bar'
          ? {
              label: yTitle,
              data: points.map((point) => point.value),
              backgroundColor: primary,
              borderRadius: 4,
              maxBarThickness: 48,
            }
          : {
              label: yTitle,
              data: points.map((point) => point.value),
              borderColor: primary,
              backgroundColor: alpha(primary, 0.15),
              pointBackgroundColor: primary,
              fill: true,
              cubicInterpolationMode: 'monotone' as const,
            },
      ],
    }),
    [kind, points, primary, yTitle],
  );

  const fallback = (
    <ul>
      {points.map((point, index) => (
        // Two users may share a name.
        <li key={`${index}-${point.longLabel}`}>
          {`${point.longLabel}: ${formatCount(point.value, i18n.language)}`}
        </li>
      ))}
    </ul>
  );

  let chart;
  if (!canDraw)
    chart = (
      <canvas role="img" aria-label={name}>
        {fallback}
      </canvas>
    );
  else if (kind === 'bar')
    chart = <Bar aria-label={name} fallbackContent={fallback} options={options} data={data} />;
  else chart = <Line aria-label={name} fallbackContent={fallback} options={options} data={data} />;

  // Chart.js sizes the canvas to this box (maintainAspectRatio: false).
  return <Box sx={{ position: 'relative', height: '100%' }}>{chart}</Box>;
};
