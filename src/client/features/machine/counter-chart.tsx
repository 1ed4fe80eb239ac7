/**
 * A counter's readings over time as a small line chart in plain SVG (no chart package). A reading lower than the
 * one before starts a new series (`counterSeries`: the counter was replaced, the user confirmed it): the line
 * breaks there and a dashed marker says "Zähler getauscht". Readings not sent yet are hollow dots.
 */
import { Box, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { counterSeries } from '../../../shared/domain/counter';
import { formatDate } from '../../lib/dates';
import { currentLanguage } from '../../lib/i18n';
import type { CounterReadingPoint } from '../../sync/machine-counters';
import { formatReading } from './format-reading';

const WIDTH = 640;
const HEIGHT = 180;
const PAD = { left: 96, right: 16, top: 16, bottom: 28 };

export function CounterChart({ name, readings, unit }: { name: string; readings: readonly CounterReadingPoint[]; unit: string | null }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  if (readings.length === 0) {
    return (
      <Text color="fg.muted" data-testid="counter-chart-empty">
        {t('counterSlice.chartEmpty')}
      </Text>
    );
  }
  const series = counterSeries(readings);
  const times = readings.map((r) => r.takenat);
  const values = readings.map((r) => r.value);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [v0, v1] = [Math.min(...values), Math.max(...values)];
  const x = (time: number) => (t1 === t0 ? PAD.left + (WIDTH - PAD.left - PAD.right) / 2 : PAD.left + ((time - t0) / (t1 - t0)) * (WIDTH - PAD.left - PAD.right));
  const y = (value: number) => (v1 === v0 ? PAD.top + (HEIGHT - PAD.top - PAD.bottom) / 2 : PAD.top + (1 - (value - v0) / (v1 - v0)) * (HEIGHT - PAD.top - PAD.bottom));
  const label = t('counterSlice.chartLabel', { name, count: readings.length, first: formatDate(t0), last: formatDate(t1) });

  return (
    <Box w="full" overflow="hidden" data-testid="counter-chart" data-series={series.length}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={label} style={{ display: 'block', maxHeight: 220 }}>
        <g fontSize="12" fill="currentColor">
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} stroke="var(--chakra-colors-border)" />
          <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={HEIGHT - PAD.bottom} stroke="var(--chakra-colors-border)" />
          <text x={PAD.left - 8} y={y(v1) + 4} textAnchor="end">
            {formatReading(v1, language, unit)}
          </text>
          {v1 !== v0 && (
            <text x={PAD.left - 8} y={y(v0) + 4} textAnchor="end">
              {formatReading(v0, language, unit)}
            </text>
          )}
          <text x={PAD.left} y={HEIGHT - 8} textAnchor="start">
            {formatDate(t0)}
          </text>
          {t1 !== t0 && (
            <text x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end">
              {formatDate(t1)}
            </text>
          )}
        </g>
        {series.map((points, index) => (
          <g key={points[0]!.nodeid}>
            {index > 0 && (
              <g data-testid="counter-chart-break">
                <line x1={x(points[0]!.takenat)} x2={x(points[0]!.takenat)} y1={PAD.top} y2={HEIGHT - PAD.bottom} stroke="var(--chakra-colors-orange-500)" strokeDasharray="4 4" />
                <text x={x(points[0]!.takenat) - 4} y={PAD.top + 10} textAnchor="end" fontSize="11" fill="var(--chakra-colors-orange-600)">
                  {t('counterSlice.seriesBreak')}
                </text>
              </g>
            )}
            {points.length > 1 && (
              <polyline points={points.map((p) => `${x(p.takenat)},${y(p.value)}`).join(' ')} fill="none" stroke="var(--chakra-colors-brand-solid, var(--chakra-colors-blue-600))" strokeWidth="2" />
            )}
            {points.map((p) => (
              <circle key={p.nodeid} cx={x(p.takenat)} cy={y(p.value)} r="4" fill={p.pending ? 'var(--chakra-colors-bg-panel, white)' : 'var(--chakra-colors-brand-solid, var(--chakra-colors-blue-600))'} stroke="var(--chakra-colors-brand-solid, var(--chakra-colors-blue-600))" strokeWidth="2">
                <title>{`${formatDate(p.takenat)}: ${formatReading(p.value, language, unit)}`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
    </Box>
  );
}
