import { DemoBanner } from './views/DemoBanner';
import { SetupView } from './views/SetupView';
import { StatusBar } from './views/StatusBar';

export function App() {
  return (
    <div className="app">
      <header className="app-header">
        <h1>Ambient Scribe</h1>
      </header>
      <DemoBanner />
      <main className="app-main">
        <SetupView />
      </main>
      <StatusBar />
    </div>
  );
}
