import type { ProfileTopicsPage } from '../../../shared/profile';
import type { PageBase } from '../../../shared/types';
import { Pagination } from '../../components/Pagination';
import { TopicList } from '../../components/TopicList';
import { EmptyList, ProfileListHeader } from './ProfileListHeader';

/** A profile's topic lists: the member's topics, and (the member alone) those they ignore and those they have read. */
export default function ProfileTopics({ page }: { page: PageBase }) {
  const data = page as ProfileTopicsPage;
  return (
    <>
      <ProfileListHeader data={data} active={page.template.name.replace(/^account\//, '')} />
      {data.topics.length === 0 ? <EmptyList textKey={data.noItemsFoundKey} /> : <TopicList topics={data.topics} />}
      <div className="mt-3">
        <Pagination pagination={data.pagination} />
      </div>
    </>
  );
}
