import { Component, type ReactNode } from 'react';
import { ErrorPage } from './error-page';

interface Props {
  pathname: string;
  children: ReactNode;
}
interface State {
  error: unknown;
  pathname: string;
}

/**
 * Catches a screen that throws while rendering and shows the error screen instead of a blank
 * page; moving to another path clears it (without remounting the pages around it).
 */
export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { error: undefined, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.pathname === state.pathname ? null : { error: undefined, pathname: props.pathname };
  }

  render() {
    return this.state.error === undefined ? this.props.children : <ErrorPage error={this.state.error} />;
  }
}
