/** Any unknown path, and every route whose screen is not built yet (spec part 2 §2.1, §8: 'Page not found 404'). */
import { Button, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { AppLogo } from '../../components/app-logo';
import { useSessionStore } from '../../stores/session-store';

/** Signed in, it stands inside the app's frame (whose bar holds the page's h1); for a guest it is the whole page. */
export function NotFoundScreen() {
  const { t } = useTranslation();
  const framed = useSessionStore((state) => state.session !== null);
  return (
    <Stack as={framed ? 'section' : 'main'} minH={framed ? '60vh' : '100dvh'} align="center" justify="center" gap="5" px="6" textAlign="center" bg="bg.canvas">
      {!framed && <AppLogo size={64} />}
      <Heading as={framed ? 'h2' : 'h1'} size="3xl">
        {t('notFound.title')}
      </Heading>
      <Text color="fg.muted" maxW="md">
        {t('notFound.text')}
      </Text>
      <Button asChild size="xl">
        <RouterLink to="/dashboard">{t('notFound.toDashboard')}</RouterLink>
      </Button>
    </Stack>
  );
}
