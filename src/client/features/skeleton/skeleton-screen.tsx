/** /template-skeliton (spec part 2 §2.1): the loading skeleton on its own, reachable without login. */
import { Box } from '@chakra-ui/react';
import { PageSkeleton } from '../../components/page-skeleton';

export function SkeletonScreen() {
  return (
    <Box as="main" minH="100dvh" bg="bg.canvas">
      <PageSkeleton />
    </Box>
  );
}
