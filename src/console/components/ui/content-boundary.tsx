import { Component, type ReactNode } from 'react';

interface Props {
  /** The source shown, as text, when the content cannot be rendered. */
  source: string;
  children: ReactNode;
}

/**
 * Renders one piece of user content (a block, a comment) in its own error boundary: content the renderer
 * cannot handle (nesting that overflows the stack, say) shows as plain text in its place, and the rest of the
 * screen keeps working for everyone who views it.
 */
export class ContentBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidUpdate(previous: Props): void {
    // Other content in the same place gets a fresh try.
    if (previous.source !== this.props.source && this.state.failed) this.setState({ failed: false });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="content-fallback" role="note">
        <p className="content-fallback-note">This content could not be displayed; here is its text.</p>
        <pre tabIndex={0}>{this.props.source.slice(0, 20_000)}</pre>
      </div>
    );
  }
}
