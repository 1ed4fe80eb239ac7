/**
 * A form opened for a record this device does not have (deleted, or a link from elsewhere): says so and leads back
 * to the list the form belongs to, the same on every form.
 */
import { Alert, Button, Stack } from '@chakra-ui/react';
import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';

export function NotFoundNotice({ text, back, testId }: { text: string; back: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="4" alignItems="start" data-testid={testId}>
      <Alert.Root status="warning" maxW="3xl">
        <Alert.Indicator />
        <Alert.Title>{text}</Alert.Title>
      </Alert.Root>
      <Button asChild variant="outline" size="lg">
        <RouterLink to={back}>
          <ArrowLeft aria-hidden />
          {t('sites.back')}
        </RouterLink>
      </Button>
    </Stack>
  );
}
