import type { CategoryPage, PageBase } from '../../shared/types';
import { useT, useUser } from '../app/hooks';
import { CategoryIcon } from '../components/CategoryIcon';
import { NewTopicButton } from '../components/NewTopicButton';
import { NewTopicsBar } from '../components/NewTopicsBar';
import { PageHeader } from '../components/PageHeader';
import { useTopicPages } from '../components/MoreTopics';
import { TagFilter } from '../components/TagFilter';
import { TopicList } from '../components/TopicList';
import { CategoryRow } from './categories';
import { CategoryWatchMenu } from './watch-controls';

/** A category: its subcategories and its topics, page by page. */
export default function Category({ page }: { page: PageBase }) {
  const { t, tx } = useT();
  const data = page as CategoryPage;
  const user = useUser();
  const { topics, footer } = useTopicPages(data.topics, data.pagination);
  return (
    <>
      <PageHeader
        icon={<CategoryIcon category={data} size={48} />}
        title={tx(data.name)}
        subtitle={data.descriptionParsed ? <span dangerouslySetInnerHTML={{ __html: data.descriptionParsed }} /> : data.description ? tx(data.description) : undefined}
      >
        <CategoryWatchMenu key={data.cid} cid={data.cid} flags={data} />
        {data.privileges?.['topics:create'] && <NewTopicButton />}
        {!user && <a className="btn btn-outline-primary" href={`${page.relative_path}/login`}>{t('category:login-to-post')}</a>}
      </PageHeader>
      {data.children?.length > 0 && (
        <section className="mb-4" aria-label={t('category:subcategories')}>
          <h2 className="h6 text-uppercase text-body-secondary">{t('category:subcategories')}</h2>
          <div className="card">
            <ul className="list-group list-group-flush">
              {data.children.map((c) => (
                <CategoryRow key={c.cid} category={c} />
              ))}
            </ul>
          </div>
        </section>
      )}
      <TagFilter tag={data.selectedTag} url={page.url} />
      <NewTopicsBar shown={data.topics ?? []} cid={data.cid} />
      <TopicList topics={topics} showCategory={false} tools={!!data.privileges?.isAdminOrMod} readTools={!!user} />
      {footer}
    </>
  );
}
